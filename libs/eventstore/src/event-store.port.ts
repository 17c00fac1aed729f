/**
 * The event store port (DESIGN §2). Semantics follow EventStoreDB:
 * - per-stream revisions count from 0; a stream that has never been written has no revision;
 * - a global position orders every event across streams (`$all`); positions only grow and
 *   are > 0; `after: 0` means "from the very start";
 * - each event has a UUID id; re-appending the same ids at the same place is idempotent.
 * Adapters: embedded SQLite (default) and EventStoreDB. Both pass test/support's contract suite.
 */

/** Expected state of the stream for an optimistic append. A number is the exact current revision. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

export interface NewEvent {
  /** UUID. Generated when absent. Used for idempotent re-appends. */
  id?: string;
  /** Stable stored type name, e.g. `CreditsPurchased`. Never starts with `$` (reserved). */
  type: string;
  /** JSON-serialisable payload. */
  data: unknown;
  metadata?: Record<string, unknown>;
}

export interface RecordedEvent<T = unknown> {
  id: string;
  stream: string;
  /** Revision of this event in its stream, from 0. */
  revision: number;
  /** Global position in `$all`; strictly increasing in commit order. */
  position: number;
  type: string;
  data: T;
  metadata: Record<string, unknown>;
  /** When the store recorded it (ISO 8601 UTC). */
  created: string;
}

export interface AppendResult {
  /** Revision of the last event now in the stream (pass it as the next expected revision). */
  nextExpectedRevision: number;
  /** Global position of the last event of this append: wait for projections to pass it. */
  position: number;
}

export interface AllFilter {
  /** Keep events whose type starts with one of these. */
  eventTypePrefixes?: string[];
  /** Keep events whose stream name starts with one of these. */
  streamPrefixes?: string[];
}

export interface ReadStreamOptions {
  direction?: 'forwards' | 'backwards';
  /** Inclusive start revision; default start (forwards) or end (backwards). */
  fromRevision?: number | 'start' | 'end';
  maxCount?: number;
}

export interface ReadAllOptions {
  direction?: 'forwards' | 'backwards';
  /**
   * Forwards: events with position > after (default 0: from the start).
   * Backwards: events with position < before (default: from the end).
   */
  after?: number;
  before?: number;
  maxCount?: number;
  filter?: AllFilter;
}

export interface SubscribeToAllOptions {
  /** Deliver events with position > after; default 0 (catch up from the start). */
  after?: number;
  filter?: AllFilter;
  /**
   * The consumer records how far it got, so `checkpoint` must move past the events the filter
   * rejects. An adapter whose server filters without saying how far it looked (EventStoreDB's
   * server-side filter) then filters in the client instead.
   */
  checkpoints?: boolean;
  /** Told when the checkpoint moved past events the filter rejected (nothing was yielded for them). */
  onCheckpoint?: (checkpoint: number) => void;
}

/**
 * A catch-up subscription: yields every matching event after `after` in position order, then
 * live ones as they are committed (by this process or another), with no gap and no duplicate.
 * Iterate with `for await`; `close()` ends the iteration.
 */
export interface AllSubscription extends AsyncIterable<RecordedEvent> {
  /**
   * Every event at or below this position has been yielded or rejected by the filter (0 before
   * any). Exact once the consumer waits for the next event with nothing at hand; never ahead of
   * what was yielded. With a filter, it lets the consumer count the events it was spared as passed.
   */
  readonly checkpoint: number;
  close(): Promise<void>;
}

export interface EventStore {
  append(stream: string, events: NewEvent[], expectedRevision?: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream. An absent stream yields nothing. */
  readStream(stream: string, options?: ReadStreamOptions): AsyncIterable<RecordedEvent>;
  /** Events of `$all` (system events excluded). Streams lazily, in bounded memory. */
  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent>;
  subscribeToAll(options?: SubscribeToAllOptions): AllSubscription;
  /** Revision of the last event of the stream, or null when the stream does not exist. */
  streamRevision(stream: string): Promise<number | null>;
  /** Position of the last event in `$all` (0 when empty). Used for lag. */
  headPosition(): Promise<number>;
  /** Cheap liveness check for /health; throws when the store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EVENT_STORE');

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** Current revision, or null when the stream does not exist. */
    readonly actual: number | null,
  ) {
    super(
      `Wrong expected revision on ${stream}: expected ${String(expected)}, actual ${actual === null ? 'no stream' : actual}`,
    );
    this.name = 'WrongExpectedRevisionError';
  }
}

/** Store unreachable or failing: maps to 503, never to a lost or doubled write. */
export class EventStoreUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EventStoreUnavailableError';
  }
}

export function matchesFilter(event: Pick<RecordedEvent, 'type' | 'stream'>, filter?: AllFilter): boolean {
  if (!filter) return true;
  if (filter.eventTypePrefixes?.length && !filter.eventTypePrefixes.some((p) => event.type.startsWith(p))) return false;
  if (filter.streamPrefixes?.length && !filter.streamPrefixes.some((p) => event.stream.startsWith(p))) return false;
  return true;
}
