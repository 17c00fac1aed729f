import { Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { BackgroundWork } from './background-work.js';

/**
 * The life of a clock-driven sweeper (approval expiry, run time-outs, pilot ends): every `intervalMs` of
 * real time where background work runs (the api with projections, the worker), one sweep at a
 * time per process (a slow sweep is joined, not doubled); a failed sweep is logged and the next
 * one tries again. Subclasses write `sweepOnce`, which resolves with how many records it changed;
 * tests call `sweep()` after moving a FakeClock.
 */
export abstract class PeriodicSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  protected readonly logger: Logger;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<number> | null = null;

  protected constructor(
    private readonly what: string,
    private readonly intervalMs: number,
    private readonly background: BackgroundWork,
  ) {
    this.logger = new Logger(what);
  }

  protected abstract sweepOnce(): Promise<number>;

  onApplicationBootstrap(): void {
    if (!this.background.run) return;
    this.timer = setInterval(() => {
      this.sweep().catch((error: unknown) =>
        this.logger.warn(`${this.what} sweep failed: ${(error as Error).message}`),
      );
    }, this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Walks the pages `find` answers (cursor by cursor) and applies `each` to every record: the
   * global position of what it appended, or null when it changed nothing. Answers how many it
   * changed and the last position (for a read-your-writes wait).
   */
  protected async eachPage<D>(
    find: (after: string | undefined) => Promise<{ items: D[]; nextCursor: string | null }>,
    each: (doc: D) => Promise<number | null>,
  ): Promise<{ changed: number; last: number | null }> {
    let changed = 0;
    let last: number | null = null;
    let cursor: string | undefined;
    do {
      const page = await find(cursor);
      for (const doc of page.items) {
        const position = await each(doc);
        if (position !== null) {
          changed++;
          last = position;
        }
      }
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return { changed, last };
  }

  sweep(): Promise<number> {
    this.running ??= this.sweepOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
