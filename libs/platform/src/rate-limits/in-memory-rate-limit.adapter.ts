import { windowStart, type RateLimitStore } from './rate-limit.port.js';

/** One process's counters. Expired windows are dropped lazily, so memory stays bounded by active keys. */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, { start: number; count: number }>();
  private lastSweep = 0;

  async hit(key: string, windowSeconds: number, now: Date): Promise<number> {
    const start = windowStart(windowSeconds, now);
    const id = `${key}:${windowSeconds}`;
    const current = this.counters.get(id);
    const count = current && current.start === start ? current.count + 1 : 1;
    this.counters.set(id, { start, count });
    this.sweep(now.getTime());
    return count;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < 60_000) return;
    this.lastSweep = nowMs;
    for (const [id, c] of this.counters) {
      const seconds = Number(id.slice(id.lastIndexOf(':') + 1));
      if (c.start + seconds * 1000 <= nowMs) this.counters.delete(id);
    }
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
