/**
 * D12 / spec "Events" rule 4: attempts at 0, +1 min, +5 min, +30 min, +2 h. Each delay runs
 * from the end of the failed attempt before it.
 */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000] as const;

/** The fifth failed automatic attempt of a delivery disables the webhook. */
export const MAX_AUTOMATIC_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

/**
 * Delay before the automatic attempt after failed automatic attempt `n` (1-based), or null after
 * the last. `scale` (SVC_WEBHOOK_RETRY_SCALE, test mode only) shrinks the whole schedule so tests
 * and the fault harness see all five attempts in seconds; 1 everywhere else.
 */
export function retryDelayAfter(n: number, scale = 1): number | null {
  return n >= 1 && n <= RETRY_DELAYS_MS.length ? Math.round(RETRY_DELAYS_MS[n - 1]! * scale) : null;
}
