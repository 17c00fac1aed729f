import { windowStart, type RateLimitStore } from './rate-limit.port.js';

/**
 * One process's counters (the embedded mode), one entry per key and window like the MongoDB
 * adapter. Finished windows are swept at most once a minute, so memory stays bounded by the
 * keys active in the last hour. Increments are synchronous, hence exact under concurrency.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { count: number; expires: number }>();
  private lastSweep = 0;

  async hit(key: string, windowSeconds: readonly number[], now: Date): Promise<number[]> {
    const counts = windowSeconds.map((seconds) => {
      const start = windowStart(seconds, now);
      const id = `${key}:${seconds}:${start}`;
      const current = this.counters.get(id);
      if (current) return ++current.count;
      this.counters.set(id, { count: 1, expires: start + seconds * 1000 });
      return 1;
    });
    this.sweep(now.getTime());
    return counts;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < 60_000) return;
    this.lastSweep = nowMs;
    for (const [id, c] of this.counters) if (c.expires <= nowMs) this.counters.delete(id);
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
