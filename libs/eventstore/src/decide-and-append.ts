import type { Decider } from '#kernel';
import { type EventStore, WrongExpectedRevisionError } from './event-store.port.js';

/** The stored shape of a domain event: a stable type name and a JSON payload. */
export interface DomainEvent {
  type: string;
  data: unknown;
}

export interface LoadedState<S> {
  state: S;
  /** Revision of the stream's last event, or null when the stream does not exist. */
  revision: number | null;
}

export interface DecideAndAppendOptions<S = unknown> {
  /** Stored with every new event (request id, causation, ...). */
  metadata?: Record<string, unknown>;
  /**
   * How often to re-read and decide again when another writer appended to the stream in
   * between (WrongExpectedRevisionError). Default 3; the last conflict is thrown (→ 409).
   */
  retries?: number;
  /**
   * The state the caller already holds, used for the first decision instead of reading the
   * stream (an importer that knows a stream is new saves a read per record). A conflict reads
   * the stream as usual.
   */
  known?: LoadedState<S>;
}

export interface DecideAndAppendResult<E, S> {
  /** The events the decider produced (empty: nothing was appended). */
  events: E[];
  /** The state after them. */
  state: S;
  /** Global position of the last appended event, for `ProjectionRunner.waitFor`; null when nothing was appended. */
  position: number | null;
  /** The stream's revision afterwards (null: the stream still does not exist). */
  revision: number | null;
}

/** Folds a stream with a decider's `evolve`. */
export async function loadState<E extends DomainEvent, S>(
  store: EventStore,
  stream: string,
  decider: Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>,
): Promise<LoadedState<S>> {
  let state = decider.initialState;
  let revision: number | null = null;
  for await (const recorded of store.readStream(stream)) {
    state = decider.evolve(state, { type: recorded.type, data: recorded.data } as E);
    revision = recorded.revision;
  }
  return { state, revision };
}

/**
 * The command side of an aggregate in one call (DESIGN §2, STYLE §3): read the stream, fold,
 * decide, append with the expected revision. The decider throws (AppError) to refuse; a
 * concurrent append to the same stream makes it re-read and decide again.
 */
export async function decideAndAppend<C, E extends DomainEvent, S>(
  store: EventStore,
  stream: string,
  decider: Decider<C, E, S>,
  command: C,
  options: DecideAndAppendOptions<S> = {},
): Promise<DecideAndAppendResult<E, S>> {
  const retries = options.retries ?? 3;
  for (let attempt = 0; ; attempt++) {
    const { state, revision } =
      attempt === 0 && options.known ? options.known : await loadState(store, stream, decider);
    const events = decider.decide(command, state);
    if (events.length === 0) return { events, state, position: null, revision };
    try {
      const result = await store.append(
        stream,
        events.map((e) => ({
          type: e.type,
          data: e.data,
          ...(options.metadata ? { metadata: options.metadata } : {}),
        })),
        revision === null ? 'no_stream' : revision,
      );
      const after = events.reduce((s, e) => decider.evolve(s, e), state);
      return { events, state: after, position: result.position, revision: result.nextExpectedRevision };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= retries) throw error;
    }
  }
}
