import { windowStart, type RateLimitStore } from './rate-limit.port.js';

/** One key's counter in one window size: the current window, and the one before for late hits. */
interface WindowCounter {
  seconds: number;
  start: number;
  count: number;
  previousStart: number;
  previousCount: number;
}

/**
 * One process's counters (the embedded mode). Each key holds, per window size, the current
 * window's count and the previous one's (a late hit of the previous window, from a clock a
 * little behind, still counts there); older windows, rarer still, keep their counts in a map
 * by window.
 * No string is built and no promise made per hit. Keys whose windows have all ended are swept
 * at most once a minute, so memory stays bounded by the keys active in the last hour.
 * Increments are synchronous, hence exact under concurrency.
 */
export class InMemoryRateLimitStore implements RateLimitStore {
  private readonly counters = new Map<string, WindowCounter[]>();
  private readonly older = new Map<string, { count: number; expires: number }>();
  private lastSweep = 0;

  hit(key: string, windowSeconds: readonly number[], now: Date): number[] {
    let windows = this.counters.get(key);
    if (!windows) {
      windows = [];
      this.counters.set(key, windows);
    }
    const counts = new Array<number>(windowSeconds.length);
    for (let i = 0; i < windowSeconds.length; i++) {
      const seconds = windowSeconds[i]!;
      const start = windowStart(seconds, now);
      let w = windows[i]?.seconds === seconds ? windows[i] : windows.find((c) => c.seconds === seconds);
      if (!w) {
        w = { seconds, start, count: 0, previousStart: -1, previousCount: 0 };
        windows.push(w);
      }
      if (start > w.start) {
        // A new window: the current one becomes the previous (its late hits still count), and
        // the previous one's count moves to the map, where later hits still find it.
        if (w.previousCount > 0)
          this.older.set(`${key}:${seconds}:${w.previousStart}`, {
            count: w.previousCount,
            expires: w.previousStart + seconds * 1000,
          });
        w.previousStart = w.start;
        w.previousCount = w.count;
        w.start = start;
        w.count = 0;
      }
      if (start === w.start) counts[i] = ++w.count;
      else if (start === w.previousStart) counts[i] = ++w.previousCount;
      else counts[i] = this.hitOlder(`${key}:${seconds}:${start}`, start + seconds * 1000);
    }
    this.sweep(now.getTime());
    return counts;
  }

  count(key: string, windowSeconds: readonly number[], now: Date): number[] {
    const windows = this.counters.get(key) ?? [];
    return windowSeconds.map((seconds) => {
      const start = windowStart(seconds, now);
      const w = windows.find((c) => c.seconds === seconds);
      if (w?.start === start) return w.count;
      if (w?.previousStart === start) return w.previousCount;
      return this.older.get(`${key}:${seconds}:${start}`)?.count ?? 0;
    });
  }

  private hitOlder(id: string, expires: number): number {
    const current = this.older.get(id);
    if (current) return ++current.count;
    this.older.set(id, { count: 1, expires });
    return 1;
  }

  private sweep(nowMs: number): void {
    if (nowMs - this.lastSweep < 60_000) return;
    this.lastSweep = nowMs;
    for (const [key, windows] of this.counters) {
      if (windows.every((w) => w.start + w.seconds * 1000 <= nowMs)) this.counters.delete(key);
    }
    for (const [id, c] of this.older) if (c.expires <= nowMs) this.older.delete(id);
  }

  async close(): Promise<void> {
    this.counters.clear();
    this.older.clear();
  }
}
