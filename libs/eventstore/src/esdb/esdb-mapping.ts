import {
  ANY,
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  InvalidArgumentError,
  NotLeaderError,
  NO_STREAM,
  STREAM_EXISTS,
  TimeoutError,
  UnavailableError,
  UnsupportedError,
  WrongExpectedVersionError,
  convertToCommandError,
  eventTypeFilter,
  excludeSystemEvents,
  isCommandError,
  streamNameFilter,
  type AppendExpectedRevision,
  type Filter,
  type Position,
} from '@eventstore/db-client';
import {
  EventStoreUnavailableError,
  WrongExpectedRevisionError,
  matchesFilter,
  type AllFilter,
  type ExpectedRevision,
  type RecordedEvent,
} from '../event-store.port.js';

/*
 * Pure mapping between the port's semantics and EventStoreDB's, kept apart from the adapter so
 * it is unit-tested without a server.
 *
 * Global position = the event's commit position in the transaction log (a byte offset), as a
 * Number. Since EventStoreDB 20 an append writes one prepare record per event, flagged
 * "committed", and $all reports it with commit == prepare == the record's own log position; so
 * the commit position is unique per event and strictly increasing in $all order. (Only the
 * legacy TCP API's explicit transactions gave several events one commit position; this service
 * never writes them.) To read or subscribe from a position we therefore rebuild
 * `{commit: p, prepare: p}`, which is exactly the event's position.
 *
 * Positions are offsets, not counters: only order and equality mean something (`head - checkpoint`
 * is bytes, not events), and `after`/`before` must be positions this store returned, or 0.
 */

/** Commit positions of 2^63 and above are the server's "no position" (ulong.MaxValue / -1). */
const NO_POSITION = 1n << 63n;

/** The client accepts `esdb://` and `esdb+discover://`; KurrentDB's schemes name the same protocol. */
export function normaliseConnectionString(url: string): string {
  return url
    .trim()
    .replace(/^kurrentdb(\+discover)?:\/\//i, (_m, discover: string | undefined) => `esdb${discover ?? ''}://`);
}

export function toAppendExpectedRevision(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      if (typeof expected !== 'number' || !Number.isSafeInteger(expected) || expected < 0) {
        throw new Error(
          `append: expected revision ${JSON.stringify(expected)} is not 'any', 'no_stream', 'stream_exists' or an integer >= 0`,
        );
      }
      return BigInt(expected);
  }
}

/** A log position as the port's number, or null when the server sent none. */
export function fromEsdbPosition(position: Position | undefined): number | null {
  if (!position) return null;
  if (position.commit < 0n || position.commit >= NO_POSITION) return null;
  return Number(position.commit);
}

/** The `{commit, prepare}` of the event at port position `position` (see the note above). */
export function toEsdbPosition(position: number): Position {
  if (!Number.isSafeInteger(position) || position < 0)
    throw new RangeError(`position ${position} is not an integer >= 0`);
  const p = BigInt(position);
  return { commit: p, prepare: p };
}

/** The fields of the client's recorded event this adapter reads (its own type is a deep conditional). */
export interface EsdbEvent {
  streamId: string;
  id: string;
  revision: bigint;
  type: string;
  created: Date;
  data: unknown;
  metadata?: unknown;
  position?: Position;
}

/** System events ($-prefixed types or streams: stats, metadata, links, scavenges) are never ours. */
export function isSystemEvent(event: Pick<EsdbEvent, 'streamId' | 'type'>): boolean {
  return event.type.startsWith('$') || event.streamId.startsWith('$');
}

export function toRecordedEvent(event: EsdbEvent, position: number): RecordedEvent {
  const metadata = event.metadata;
  return {
    id: event.id,
    stream: event.streamId,
    revision: Number(event.revision),
    position,
    type: event.type,
    data: event.data instanceof Uint8Array ? Buffer.from(event.data).toString('utf8') : event.data,
    metadata:
      metadata !== null && typeof metadata === 'object' && !Array.isArray(metadata) && !(metadata instanceof Uint8Array)
        ? (metadata as Record<string, unknown>)
        : {},
    created: event.created.toISOString(),
  };
}

/**
 * How an `AllFilter` runs for a subscription: EventStoreDB's server-side filter takes ONE
 * prefix list (on event type or on stream name). With both, event types are filtered on the
 * server and streams here; with neither, the server drops system events. The client-side check
 * always runs too: it is cheap and also removes system events a prefix might let through.
 * `clientOnly` keeps only the system-event filter on the server (see SubscribeToAllOptions.checkpoints).
 */
export interface FilterPlan {
  server: Filter;
  accept(event: Pick<EsdbEvent, 'streamId' | 'type'>): boolean;
}

export function planAllFilter(filter: AllFilter | undefined, options: { clientOnly?: boolean } = {}): FilterPlan {
  const types = filter?.eventTypePrefixes?.length ? filter.eventTypePrefixes : undefined;
  const streams = filter?.streamPrefixes?.length ? filter.streamPrefixes : undefined;
  // clientOnly: every event reaches the client, so the subscription's checkpoint passes those
  // the filter rejects (a server-side filter skips them silently).
  const server = options.clientOnly
    ? excludeSystemEvents()
    : types
      ? eventTypeFilter({ prefixes: [...types] })
      : streams
        ? streamNameFilter({ prefixes: [...streams] })
        : excludeSystemEvents();
  return {
    server,
    accept: (event) => !isSystemEvent(event) && matchesFilter({ type: event.type, stream: event.streamId }, filter),
  };
}

/** Client-side only (the client's `readAll` takes no filter): system events out, then the filter. */
export function acceptAll(filter: AllFilter | undefined): (event: Pick<EsdbEvent, 'streamId' | 'type'>) => boolean {
  return (event) => !isSystemEvent(event) && matchesFilter({ type: event.type, stream: event.streamId }, filter);
}

/** Failures that say nothing about the request itself: the server is down, restarting, or changing leader. */
export function isTransientEsdbError(raw: unknown): boolean {
  const error = toCommandError(raw);
  if (error instanceof WrongExpectedVersionError) return false;
  if (error instanceof AccessDeniedError || error instanceof InvalidArgumentError || error instanceof UnsupportedError)
    return false;
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof TimeoutError ||
    error instanceof CancelledError ||
    error instanceof NotLeaderError
  ) {
    return true;
  }
  if (error instanceof Error && isCommandError(error)) return error.type === 'unknown';
  // Transport-level failures that reach us unconverted (socket errors, streams torn down).
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' &&
    [
      'ECONNREFUSED',
      'ECONNRESET',
      'EPIPE',
      'ETIMEDOUT',
      'ENOTFOUND',
      'EAI_AGAIN',
      'ERR_STREAM_PREMATURE_CLOSE',
    ].includes(code)
  );
}

/**
 * The port's errors for the client's: a conflict becomes WrongExpectedRevisionError (with the
 * actual revision), an unreachable server EventStoreUnavailableError; anything else is returned
 * unchanged.
 */
export function mapEsdbError(raw: unknown, context: { stream?: string; expected?: ExpectedRevision } = {}): unknown {
  if (raw instanceof WrongExpectedRevisionError || raw instanceof EventStoreUnavailableError) return raw;
  const error = toCommandError(raw);
  if (error instanceof WrongExpectedVersionError) {
    const actual = error.actualVersion;
    return new WrongExpectedRevisionError(
      context.stream ?? error.streamName,
      context.expected ?? fromClientExpected(error.expectedVersion),
      typeof actual === 'bigint' ? Number(actual) : null,
    );
  }
  if (isTransientEsdbError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return new EventStoreUnavailableError(`EventStoreDB is unavailable: ${message}`, { cause: error });
  }
  return raw;
}

/** Some paths of the client (its server-features probe) reject with raw gRPC errors. */
function toCommandError(error: unknown): unknown {
  return error instanceof Error ? convertToCommandError(error) : error;
}

function fromClientExpected(expected: AppendExpectedRevision): ExpectedRevision {
  return typeof expected === 'bigint' ? Number(expected) : expected;
}
