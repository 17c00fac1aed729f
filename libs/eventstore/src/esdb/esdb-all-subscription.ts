import type { Position } from '@eventstore/db-client';
import type { AllSubscription, RecordedEvent } from '../event-store.port.js';
import { fromEsdbPosition, toEsdbPosition, toRecordedEvent, type EsdbEvent } from './esdb-mapping.js';

/** One server subscription: what `client.subscribeToAll` returns, reduced to what is used here. */
export interface AllSource extends AsyncIterable<{ event?: EsdbEvent }> {
  unsubscribe(): Promise<void>;
  destroy(error?: Error): unknown;
}

export interface ResubscribingOptions {
  /** Opens a catch-up subscription that delivers events strictly after `from` (null: from the start). */
  open(from: Position | null): AllSource;
  /** Deliver events with position > after. */
  after: number;
  /** Client-side part of the filter (system events, the prefix list the server did not apply). */
  accept(event: EsdbEvent): boolean;
  /** Whether a failure of the server subscription is worth resubscribing for. */
  isTransient(error: unknown): boolean;
  /** Error handed to the consumer when a failure is not transient. */
  mapError(error: unknown): unknown;
  /** Told about each failure that leads to a resubscription. */
  onRetry?(error: unknown, attempt: number): void;
  /** Backoff between resubscriptions: doubles from `initialMs` up to `maxMs`. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
  /** Told when an event the client-side filter rejected moved the checkpoint. */
  onCheckpoint?(checkpoint: number): void;
  /** Called once when the subscription ends (closed, or failed for good). */
  onEnd?(): void;
}

/**
 * A catch-up subscription to $all that survives server restarts and dropped connections:
 * when the server subscription fails for a transient reason it resubscribes from the position
 * of the last event it saw (EventStoreDB's subscription positions are exclusive), so nothing is
 * missed, and it drops any event at or below that position, so nothing is delivered twice.
 * Events the client-side filter rejects still advance that position: they were seen.
 * Checkpoint and caught-up messages never reach here (the client turns them into stream events
 * it does not push), so only events are yielded.
 */
export class ResubscribingAllSubscription implements AllSubscription {
  private last: number;
  private lastRaw: Position | null;
  private closed = false;
  private iterator: AsyncGenerator<RecordedEvent> | undefined;
  private source: AllSource | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: ResubscribingOptions) {
    this.last = options.after;
    this.lastRaw = options.after > 0 ? toEsdbPosition(options.after) : null;
  }

  /** Position of the last event seen (delivered or filtered out); 0 before any. */
  get position(): number {
    return this.last;
  }

  /** The events a server-side filter skipped are not counted: only those that reached here. */
  get checkpoint(): number {
    return this.last;
  }

  /** Every call returns the same iterator: a second reader continues where the first stopped. */
  [Symbol.asyncIterator](): AsyncIterator<RecordedEvent> {
    this.iterator ??= this.run();
    return this.iterator;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.end();
    this.wake?.();
    const source = this.source;
    if (source) release(source);
  }

  private async *run(): AsyncGenerator<RecordedEvent> {
    let attempt = 0;
    try {
      while (!this.closed) {
        const source = this.options.open(this.lastRaw);
        this.source = source;
        const iterator = source[Symbol.asyncIterator]();
        let failure: unknown = undefined;
        try {
          for (;;) {
            let step: IteratorResult<{ event?: EsdbEvent }>;
            try {
              step = await iterator.next();
            } catch (error) {
              failure = error;
              break;
            }
            if (step.done || this.closed) break;
            attempt = 0;
            const event = step.value.event;
            if (!event) continue;
            const position = fromEsdbPosition(event.position);
            if (position === null || position <= this.last) continue;
            this.last = position;
            this.lastRaw = event.position!;
            if (!this.options.accept(event)) {
              this.options.onCheckpoint?.(position);
              continue;
            }
            yield toRecordedEvent(event, position);
          }
        } finally {
          this.source = undefined;
          release(source);
        }
        if (this.closed) return;
        if (failure !== undefined && !this.options.isTransient(failure)) throw this.options.mapError(failure);
        // A transient failure, or the server ended the call: resubscribe after a pause.
        this.options.onRetry?.(failure, attempt);
        await this.pause(this.backoff(attempt++));
      }
    } finally {
      this.end();
    }
  }

  private end(): void {
    if (this.closed) return;
    this.closed = true;
    this.options.onEnd?.();
  }

  private backoff(attempt: number): number {
    const initial = this.options.initialBackoffMs ?? 100;
    const max = this.options.maxBackoffMs ?? 5000;
    return Math.min(max, initial * 2 ** Math.min(attempt, 16));
  }

  /** Waits `ms`, or less if the subscription is closed meanwhile. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const store = this;
      function done(): void {
        clearTimeout(timer);
        store.wake = undefined;
        resolve();
      }
      this.wake = done;
    });
  }
}

/**
 * Cancels the server call and ends a local iteration blocked on it (its error is ignored once
 * closed). Not awaited: the call may still be being set up (an unreachable server), and close()
 * must not wait for that.
 */
function release(source: AllSource): void {
  source.unsubscribe().catch(() => undefined);
  source.destroy();
}
