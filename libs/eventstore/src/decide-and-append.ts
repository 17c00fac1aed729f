import { BoundedCache, type Decider } from '#kernel';
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

type Folding<E, S> = Pick<Decider<unknown, E, S>, 'initialState' | 'evolve'>;

/**
 * Streams folded recently, per event store and per decider: the state and the revision it was
 * folded to. Streams are append-only, so a cached state is always a true prefix of its stream;
 * the next load reads only the events after it (another process's appends included). A stream any
 * caller can grow (an account's keys, a webhook's test events, a repository's analyses) then costs
 * a command as much at its 100,000th event as at its first (bench: `aggregate.bench`); only the
 * first load after a start folds it whole, and that read yields between pages.
 * Deciders' states are immutable values (STYLE §3), so sharing one between loads is safe.
 */
const STATE_CACHE_ENTRIES = 10_000;
const stateCaches = new WeakMap<EventStore, WeakMap<object, BoundedCache<string, LoadedState<unknown>>>>();

function stateCache<S>(store: EventStore, decider: object): BoundedCache<string, LoadedState<S>> {
  let perDecider = stateCaches.get(store);
  if (!perDecider) stateCaches.set(store, (perDecider = new WeakMap()));
  let cache = perDecider.get(decider);
  if (!cache) perDecider.set(decider, (cache = new BoundedCache({ maxEntries: STATE_CACHE_ENTRIES })));
  return cache as BoundedCache<string, LoadedState<S>>;
}

/** Folds a stream with a decider's `evolve`, from the state cached for it when there is one. */
export async function loadState<E extends DomainEvent, S>(
  store: EventStore,
  stream: string,
  decider: Folding<E, S>,
): Promise<LoadedState<S>> {
  const cache = stateCache<S>(store, decider);
  const cached = cache.get(stream);
  let state = cached ? cached.state : decider.initialState;
  let revision: number | null = cached ? cached.revision : null;
  const options = revision === null ? undefined : { fromRevision: revision + 1 };
  for await (const recorded of store.readStream(stream, options)) {
    state = decider.evolve(state, { type: recorded.type, data: recorded.data } as E);
    revision = recorded.revision;
  }
  if (cached && revision === cached.revision) return cached;
  const loaded = { state, revision };
  if (revision !== null) cache.set(stream, loaded);
  return loaded;
}

/** Remembers the state a successful append produced, so the next command reads nothing before it. */
function remember<S>(store: EventStore, stream: string, decider: object, loaded: LoadedState<S>): void {
  if (loaded.revision !== null) stateCache<S>(store, decider).set(stream, loaded);
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
      remember(store, stream, decider, { state: after, revision: result.nextExpectedRevision });
      return { events, state: after, position: result.position, revision: result.nextExpectedRevision };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= retries) throw error;
    }
  }
}
