/**
 * The document store port for read models and looked-up state (DESIGN §2).
 * Named collections of JSON documents keyed by `id`. Adapters: embedded SQLite (default, same
 * file as the event store) and MongoDB. Both pass test/support's contract suite.
 *
 * Filter language: a documented subset of MongoDB's.
 *   { field: value }                       equality (dotted paths reach into objects)
 *   { field: { $eq | $ne | $gt | $gte | $lt | $lte: value } }
 *   { field: { $in: [values] } }
 *   { field: { $exists: true | false } }
 * Several fields are ANDed. Values are strings, numbers, booleans or null. Equality on an
 * array field is not supported (no element matching) — model such lookups as separate fields.
 *
 * Exact semantics (both adapters; `validateFilter`/`matchesFilter` in query/ are the reference):
 * - field paths are dot-separated identifiers (`[A-Za-z_][A-Za-z0-9_]*`); anything else, an
 *   unknown operator (`$regex`, `$or`, ...) or a non-scalar value throws InvalidFilterError;
 * - types never mix: 10 and "10" differ, `$gt: 5` matches numbers only, `$lt: "m"` strings only,
 *   `true` is not 1; `$gt/$gte/$lt/$lte` take a number or a string (null/boolean → InvalidFilterError);
 * - `{f: null}` matches null and missing, `{f: {$ne: null}}` present and not null,
 *   `$exists` tells missing from null; `$ne: v` matches missing fields too;
 * - sort order: missing = null < numbers < strings (booleans, objects, arrays: unspecified).
 */

export interface Doc {
  id: string;
  [key: string]: unknown;
}

export type Scalar = string | number | boolean | null;
export type FieldCondition =
  | Scalar
  | {
      $eq?: Scalar;
      $ne?: Scalar;
      $gt?: Scalar;
      $gte?: Scalar;
      $lt?: Scalar;
      $lte?: Scalar;
      $in?: Scalar[];
      $exists?: boolean;
    };
export type Filter = Record<string, FieldCondition>;

/** Ordered sort keys; `id` ascending is always appended as the final tie-breaker. */
export type Sort = Array<[field: string, direction: 1 | -1]>;

export interface FindOptions {
  sort?: Sort;
  /** Page size; default 100, at most 1000. */
  limit?: number;
  /**
   * Opaque cursor from a previous page's `nextCursor` (keyset pagination: stable under inserts),
   * valid with the same filter and sort only. Adapters build it with `encodeCursor` (query/) so
   * a projection context can page over a store and its pending writes alike.
   */
  after?: string;
}

export interface FindResult<T> {
  items: T[];
  /** Cursor of the next page, or null when this page is the last. */
  nextCursor: string | null;
}

export interface IndexSpec {
  /** Fields in order with direction. Dotted paths allowed. */
  fields: Sort;
  unique?: boolean;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  get(id: string): Promise<T | null>;
  getMany(ids: string[]): Promise<T[]>;
  /** Insert or replace the whole document. A unique index violation throws DuplicateKeyError. */
  upsert(doc: T): Promise<void>;
  /** Insert only; resolves false (and changes nothing) when the id exists already. */
  insertIfAbsent(doc: T): Promise<boolean>;
  /**
   * Sets top-level fields of document `id` if it exists and matches `where` (the filter
   * language), as ONE atomic operation: the condition is checked by the write itself, never by
   * a read before it. Of concurrent calls that each make the others' `where` false (take once,
   * compare-and-set), exactly one resolves true, on every adapter and across processes.
   * Resolves false (changing nothing) when the document is missing or does not match. Other
   * fields are kept. `set` names top-level fields (not `id`); values are JSON. A unique index
   * violation throws DuplicateKeyError.
   */
  updateIf(id: string, where: Filter, set: Record<string, unknown>): Promise<boolean>;
  /** Resolves true when a document was deleted. */
  delete(id: string): Promise<boolean>;
  find(filter?: Filter, options?: FindOptions): Promise<FindResult<T>>;
  count(filter?: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
}

/**
 * One write of a batch. `guardPosition` makes a projection's write idempotent: the write is
 * skipped when the stored document already carries `_position >= guardPosition` (the global
 * position of the event that produced it); written documents get `_position` set to it.
 */
export type WriteOp =
  | { kind: 'upsert'; collection: string; doc: Doc; guardPosition?: number }
  | { kind: 'delete'; collection: string; id: string; guardPosition?: number }
  /**
   * Compare-and-set: write `doc` only if the stored document's fields equal `expect`
   * (`expect: null` = must not exist; top-level fields, an expected null also matches a missing
   * field). A failed check throws ConcurrentModificationError;
   * on the embedded adapter the whole batch then rolls back.
   */
  | { kind: 'cas'; collection: string; doc: Doc; expect: Record<string, Scalar> | null };

export interface ApplyBatchOptions {
  /**
   * Every write of the batch is derived from the event log (a projection's documents and its
   * checkpoint), so a replay rebuilds it. The batch is still atomic, but the store need not wait
   * for the disk: embedded, the transaction commits without an fsync (SQLite WAL at
   * `synchronous=NORMAL`), and a power loss can undo only the newest such commits, writes and
   * checkpoint together, which the projection then replays. The next fsync'd commit on the file
   * (an append, any other write) makes it durable too. MongoDB: no difference.
   */
  rebuildable?: boolean;
}

export interface DocumentStore {
  /**
   * A handle on a collection (cheap, no I/O; the collection exists from its first write).
   * Names match `[A-Za-z0-9_][A-Za-z0-9_.-]*` (at most 120 characters); others throw.
   */
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  /**
   * Idempotent: creates missing indexes (SQLite expression indexes / Mongo indexes). Unique
   * indexes are only meant for fields every document has (missing fields: adapter-specific).
   */
  ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void>;
  dropCollection(name: string): Promise<void>;
  listCollections(): Promise<string[]>;
  /**
   * Applies the ops in order. Embedded: one transaction (all or nothing). MongoDB: in order,
   * each op idempotent by its guard, so a retried batch converges on the same result.
   */
  applyBatch(ops: WriteOp[], options?: ApplyBatchOptions): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DOCUMENT_STORE = Symbol('DOCUMENT_STORE');

export class ConcurrentModificationError extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
  ) {
    super(`Concurrent modification of ${collection}/${id}`);
    this.name = 'ConcurrentModificationError';
  }
}

/** A write would break a unique index. On the embedded adapter its batch rolls back. */
export class DuplicateKeyError extends Error {
  constructor(
    readonly collection: string,
    readonly id: string,
    options?: { cause?: unknown },
  ) {
    super(`Duplicate key in ${collection} writing ${id}`, options);
    this.name = 'DuplicateKeyError';
  }
}

export class InvalidFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidFilterError';
  }
}
