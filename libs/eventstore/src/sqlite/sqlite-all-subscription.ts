import type { AllFilter, AllSubscription, RecordedEvent } from '../event-store.port.js';

/** What a subscription needs from the store that owns it. */
export interface SubscriptionHost {
  /** Bumped on every commit the store learns about (its own at once, other processes' by polling). */
  readonly changeVersion: number;
  /**
   * Next matching rows after `after`, at most one page. `scannedTo` is how far the scan got
   * (with a filter, past non-matching rows); `full` says another page may follow at once.
   */
  readSubscriptionPage(
    after: number,
    filter: AllFilter | undefined,
  ): { events: RecordedEvent[]; scannedTo: number; full: boolean };
  detach(subscription: SqliteAllSubscription): void;
}

/**
 * Catch-up and live are one loop: read the next page after the last delivered position; when
 * caught up, sleep until the store reports a change, then read again. There is no hand-over
 * from a catch-up phase to a live phase, hence nothing to lose or double at the switch.
 * No gap: positions are assigned in commit order (see SqliteEventStore), so once a position is
 * visible every lower one that will ever exist is visible too. Pull-based, so a slow consumer
 * holds at most one page in memory.
 */
export class SqliteAllSubscription implements AllSubscription {
  private closed = false;
  private wakeUp: (() => void) | null = null;
  private iterator: AsyncGenerator<RecordedEvent> | null = null;
  private scanned: number;

  constructor(
    private readonly host: SubscriptionHost,
    private readonly after: number,
    private readonly filter: AllFilter | undefined,
    private readonly onCheckpoint?: (checkpoint: number) => void,
  ) {
    this.scanned = after;
  }

  get checkpoint(): number {
    return this.scanned;
  }

  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    // One consumer: a second `for await` continues the same sequence rather than restarting it.
    this.iterator ??= this.run();
    return this.iterator;
  }

  async close(): Promise<void> {
    this.end();
  }

  /** Called by the store on a change: wake the loop if it sleeps. */
  wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = null;
    wakeUp?.();
  }

  /** Ends the iteration at the next step (the store calls it on close). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.host.detach(this);
    this.wake();
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    let after = this.after;
    try {
      while (!this.closed) {
        const seen = this.host.changeVersion;
        const page = this.host.readSubscriptionPage(after, this.filter);
        for (const event of page.events) {
          this.scanned = event.position;
          yield event;
          if (this.closed) return;
        }
        after = page.scannedTo;
        if (after > this.scanned) {
          // Every event of the page has been taken: the rest of the range was filtered out.
          this.scanned = after;
          this.onCheckpoint?.(after);
        }
        if (page.full || this.host.changeVersion !== seen) continue;
        // Nothing happened between the read and here (no await in between), so no wake-up is lost.
        await new Promise<void>((resolve) => {
          this.wakeUp = resolve;
        });
      }
    } finally {
      this.end();
    }
  }
}
