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
  close(): Promise<void>;
}

export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

export function windowStart(windowSeconds: number, now: Date): number {
  const ms = windowSeconds * 1000;
  return Math.floor(now.getTime() / ms) * ms;
}
