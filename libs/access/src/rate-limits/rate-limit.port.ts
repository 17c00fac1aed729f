/** A budget of requests per window (D7): per minute and per hour. */
export interface RateLimits {
  per_minute: number;
  per_hour: number;
}

/**
 * Where an account's limits come from. The platform answers from its accounts read model (the
 * plan); `cacheable` is false for an account it does not know yet (projection lag), whose
 * fallback limits must not be remembered.
 */
export interface AccountRateLimits {
  limitsOf(accountId: string): Promise<{ limits: RateLimits; cacheable: boolean }>;
}

export const ACCOUNT_RATE_LIMITS = Symbol('ACCOUNT_RATE_LIMITS');

/**
 * Counter store for fixed-window rate limits. In-memory for the embedded mode (one process);
 * MongoDB in the scaled mode so the limit holds across API instances. One contract suite.
 */
export interface RateLimitStore {
  /**
   * Atomically adds one hit to the counter of `key` in each window (sizes in seconds) that
   * contains `now`, and returns the counts after the hit, in the order of `windowSeconds`.
   * Windows are aligned to the Unix epoch. (All windows of a request in one call: one promise
   * on the hot path, one round trip's latency on MongoDB.) An in-process store may answer
   * synchronously: no promise at all on the hot path.
   */
  hit(key: string, windowSeconds: readonly number[], now: Date): Promise<number[]> | number[];
  /**
   * The counts of `key` in each window containing `now`, without a hit (what has been used so
   * far: the dashboard's usage). 0 for a window with no hit.
   */
  count(key: string, windowSeconds: readonly number[], now: Date): Promise<number[]> | number[];
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

export function windowStart(windowSeconds: number, now: Date): number {
  const ms = windowSeconds * 1000;
  return Math.floor(now.getTime() / ms) * ms;
}
