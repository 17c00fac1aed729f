import { randomUUID } from 'node:crypto';
import type { ExpectedRevision, NewEvent } from './event-store.port.js';

/** An event checked and serialised once, ready for any adapter to write. */
export interface PreparedEvent {
  /** Lower-case UUID: the caller's or a fresh v4. */
  id: string;
  /** True when the appender gave the id (it may be a retry key), false when generated here. */
  idGiven: boolean;
  type: string;
  dataJson: string;
  /** `null` when there is no metadata (stored as absent, read back as `{}`). */
  metadataJson: string | null;
}

export interface PreparedAppend {
  events: PreparedEvent[];
  /** True when the caller supplied the first event's id, so the append may be a retry (idempotent re-append). */
  callerIds: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Shared input rules of `EventStore.append`, so every adapter rejects the same things with the
 * same clear message (a plain Error: it is a programming mistake, not a conflict):
 * empty or `$`-prefixed stream names and types (reserved by EventStoreDB), empty appends,
 * malformed ids, data or metadata that JSON cannot carry, invalid expected revisions.
 */
export function prepareAppend(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): PreparedAppend {
  if (typeof stream !== 'string' || stream.length === 0)
    throw new Error('append: stream name must be a non-empty string');
  if (stream.startsWith('$'))
    throw new Error(`append: stream name "${stream}" starts with "$", which is reserved for system streams`);
  checkExpectedRevision(expectedRevision);
  if (!Array.isArray(events) || events.length === 0)
    throw new Error(`append to ${stream}: at least one event is required`);

  const callerIds = events[0]?.id !== undefined;
  const seen = new Set<string>();
  const prepared = events.map((event, i): PreparedEvent => {
    const where = `append to ${stream}: event ${i}`;
    if (typeof event?.type !== 'string' || event.type.length === 0)
      throw new Error(`${where}: type must be a non-empty string`);
    if (event.type.startsWith('$'))
      throw new Error(`${where}: type "${event.type}" starts with "$", which is reserved for system events`);
    let id: string;
    if (event.id === undefined) {
      id = randomUUID();
    } else {
      if (typeof event.id !== 'string' || !UUID.test(event.id))
        throw new Error(`${where}: id ${JSON.stringify(event.id)} is not a UUID`);
      id = event.id.toLowerCase();
    }
    if (seen.has(id)) throw new Error(`${where}: id ${id} appears twice in the same append`);
    seen.add(id);
    const dataJson = toJson(event.data, `${where} (${event.type}): data`);
    let metadataJson: string | null = null;
    if (event.metadata !== undefined && event.metadata !== null) {
      if (typeof event.metadata !== 'object' || Array.isArray(event.metadata))
        throw new Error(`${where} (${event.type}): metadata must be an object`);
      metadataJson = toJson(event.metadata, `${where} (${event.type}): metadata`);
      if (metadataJson === '{}') metadataJson = null;
    }
    return { id, idGiven: event.id !== undefined, type: event.type, dataJson, metadataJson };
  });
  return { events: prepared, callerIds };
}

export function checkExpectedRevision(expected: ExpectedRevision): void {
  if (expected === 'any' || expected === 'no_stream' || expected === 'stream_exists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw new Error(
    `append: expected revision ${JSON.stringify(expected)} is not 'any', 'no_stream', 'stream_exists' or an integer >= 0`,
  );
}

function toJson(value: unknown, what: string): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new Error(`${what} is not JSON-serialisable: ${(error as Error).message}`, { cause: error });
  }
  // JSON.stringify returns undefined for undefined, functions and symbols: nothing to store.
  if (typeof json !== 'string') throw new Error(`${what} is not JSON-serialisable (got ${typeof value})`);
  return json;
}
