import {
  compareDocs,
  compareValues,
  decodeCursor,
  encodeCursor,
  getPath,
  matchesConditions,
  normalizeSort,
  parseFilter,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type FindResult,
  type Sort,
  type WriteOp,
} from '#documents';
import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext } from './projection.port.js';

interface CollectionState {
  physical: string;
  /** What handlers see: documents read from the store, replaced by pending writes (null = deleted/absent). */
  view: Map<string, Doc | null>;
  /** `_position` of each document as stored before the batch (undefined: absent or unguarded). */
  basePosition: Map<string, number | undefined>;
  /** Documents written in this batch → position of the event that wrote them last. */
  written: Map<string, number>;
}

/**
 * The ProjectionContext of one batch: reads go to the store once per document and then to the
 * batch's own view, writes stay pending until the runner commits them with the checkpoint.
 *
 * Idempotence, per event: a write by event E to a document whose stored `_position` is already
 * >= E's position is dropped, because that document already reflects E (a batch replayed after
 * a crash between the writes and the checkpoint, on the non-atomic adapter). Otherwise a
 * read-modify-write handler would apply E twice on top of its own earlier result. Blind writes
 * (no read) are covered by the store's `guardPosition` on the resulting op.
 */
export class BatchContext implements ProjectionContext {
  private readonly states = new Map<string, CollectionState>();
  private position = 0;

  constructor(
    private readonly documents: DocumentStore,
    private readonly projection: string,
    /** Logical name → physical collection of the generation being written. */
    private readonly physical: ReadonlyMap<string, string>,
  ) {}

  /** Called by the runner before each handled event. */
  begin(event: RecordedEvent): void {
    this.position = event.position;
  }

  async get<T extends Doc = Doc>(collection: string, id: string): Promise<T | null> {
    const state = this.state(collection);
    if (!state.view.has(id)) {
      const doc = await this.documents.collection(state.physical).get(id);
      // A concurrent get of the same id may have filled the view meanwhile: keep the first.
      if (!state.view.has(id)) this.remember(state, id, doc);
    }
    return cloneJson(state.view.get(id) ?? null) as T | null;
  }

  async find<T extends Doc = Doc>(
    collection: string,
    filter?: Filter,
    options: FindOptions = {},
  ): Promise<FindResult<T>> {
    const state = this.state(collection);
    const store = this.documents.collection(state.physical);
    if (state.written.size === 0) {
      const result = await store.find(filter, options);
      return {
        items: result.items.map((doc) => cloneJson(this.seen(state, doc))) as T[],
        nextCursor: result.nextCursor,
      };
    }
    // Merge the stored page with the pending writes: ask for enough stored rows to survive the
    // removal of every pending id, then order both together with the reference comparator.
    const conditions = parseFilter(filter);
    const sort = normalizeSort(options.sort);
    const limit = Math.min(Math.max(1, options.limit ?? 100), 1000);
    const cursor = options.after ? decodeCursor(sort, options.after) : null;
    const stored = await store.find(filter, { ...options, limit: limit + state.written.size });
    const candidates: Doc[] = [];
    for (const doc of stored.items) if (!state.written.has(doc.id)) candidates.push(this.seen(state, doc));
    const order = compareDocs(sort);
    const lastStored = stored.items.at(-1);
    for (const id of state.written.keys()) {
      const doc = state.view.get(id);
      if (!doc || !matchesConditions(doc, conditions)) continue;
      if (cursor && compareToCursor(sort, doc, cursor) <= 0) continue;
      // Past the last stored row of a truncated page, unseen stored rows may come first.
      if (stored.nextCursor && lastStored && order(doc, lastStored) > 0) continue;
      candidates.push(doc);
    }
    candidates.sort(order);
    const more = candidates.length > limit || stored.nextCursor !== null;
    const items = candidates.slice(0, limit);
    return {
      items: items.map(cloneJson) as T[],
      nextCursor: more && items.length > 0 ? encodeCursor(sort, items.at(-1)!) : null,
    };
  }

  upsert(collection: string, doc: Doc): void {
    if (!doc || typeof doc.id !== 'string' || doc.id.length === 0)
      throw new TypeError('A document needs a non-empty string id');
    const state = this.state(collection);
    if (this.alreadyApplied(state, doc.id)) return;
    state.view.set(doc.id, { ...doc, _position: this.position });
    state.written.set(doc.id, this.position);
  }

  delete(collection: string, id: string): void {
    const state = this.state(collection);
    if (this.alreadyApplied(state, id)) return;
    state.view.set(id, null);
    state.written.set(id, this.position);
  }

  /** The batch's writes, guarded by the position of the event that made each. */
  ops(): WriteOp[] {
    const ops: WriteOp[] = [];
    for (const state of this.states.values()) {
      for (const [id, guardPosition] of state.written) {
        const doc = state.view.get(id);
        ops.push(
          doc
            ? { kind: 'upsert', collection: state.physical, doc, guardPosition }
            : { kind: 'delete', collection: state.physical, id, guardPosition },
        );
      }
    }
    return ops;
  }

  private alreadyApplied(state: CollectionState, id: string): boolean {
    const stored = state.basePosition.get(id);
    return stored !== undefined && stored >= this.position;
  }

  private remember(state: CollectionState, id: string, doc: Doc | null): void {
    state.view.set(id, doc);
    const position = doc?._position;
    state.basePosition.set(id, typeof position === 'number' ? position : undefined);
  }

  /** A stored document found by `find`: the view's copy when there is one. */
  private seen(state: CollectionState, doc: Doc): Doc {
    if (state.view.has(doc.id)) return state.view.get(doc.id) ?? doc;
    this.remember(state, doc.id, doc);
    return doc;
  }

  private state(collection: string): CollectionState {
    let state = this.states.get(collection);
    if (!state) {
      const physical = this.physical.get(collection);
      if (!physical) throw new Error(`Projection ${this.projection} did not declare the collection ${collection}`);
      state = { physical, view: new Map(), basePosition: new Map(), written: new Map() };
      this.states.set(collection, state);
    }
    return state;
  }
}

/**
 * Handlers get copies: they may change a document and upsert it, and a write the guard then
 * drops must leave nothing behind in the batch's view. Plain JSON, so a plain walk (faster than
 * structuredClone on small documents).
 */
function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(cloneJson) as T;
  const out: Record<string, unknown> = {};
  for (const key in value as Record<string, unknown>) out[key] = cloneJson((value as Record<string, unknown>)[key]);
  return out as T;
}

function compareToCursor(sort: Sort, doc: Doc, cursor: unknown[]): number {
  for (let i = 0; i < sort.length; i++) {
    const [field, direction] = sort[i]!;
    const c = compareValues(getPath(doc, field), cursor[i]);
    if (c !== 0) return c * direction;
  }
  return 0;
}
