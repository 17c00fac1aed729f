import {
  MongoBulkWriteError,
  MongoClient,
  type AnyBulkWriteOperation,
  type Collection as MongoCollection,
  type Db,
} from 'mongodb';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type FindResult,
  type IndexSpec,
  type WriteOp,
} from '../document-store.port.js';
import { decodeCursor, encodeCursor } from '../query/document-cursor.js';
import { normalizeSort, parseFilter } from '../query/document-filter.js';
import { assertDocId, parseSet } from '../query/document-update.js';
import {
  assertCollectionName,
  casFilter,
  duplicateKey,
  fromStored,
  guardFilter,
  keysetFilter,
  pageSize,
  replacementOf,
  toIndexDescription,
  toMongoFilter,
  toMongoSort,
  toStored,
  type StoredDoc,
} from './mongo-document-query.js';
import { MongoDocCollection, type MongoCollectionHost } from './mongo-document-collection.js';

export interface MongoDocumentStoreOptions {
  /** `mongodb://host:27017/?replicaSet=rs0` */
  url: string;
  database: string;
  /** How long an operation waits for a usable server before failing; default 5000 ms. */
  serverSelectionTimeoutMS?: number;
  /** Deadline of `ping` (for /health); default 2000 ms. */
  pingTimeoutMs?: number;
}

/** Ops per bulkWrite call: large enough to amortise round trips, small enough to retry cheaply. */
const BULK_CHUNK = 1000;

/**
 * The document store port on MongoDB through the official driver (DESIGN §2).
 *
 * Documents are stored with `_id = id`; filters, sorts and indexes use the same translation
 * (mongo-document-query.ts). Keyset cursors are the embedded adapter's (query/document-cursor.ts),
 * so pages are the same on both.
 *
 * `applyBatch` is NOT atomic here (DESIGN §2): ops run in order, consecutive upserts/deletes of
 * one collection as one ordered bulkWrite. Guarded writes make a replayed batch converge: a
 * guarded upsert is a replace filtered on `_position < guard` (or none) with upsert, so when a
 * newer version is stored the filter misses, the upsert's insert hits the `_id` index (E11000)
 * and the op is skipped. A failed cas throws ConcurrentModificationError after the ops before
 * it were applied.
 */
export class MongoDocumentStore implements DocumentStore, MongoCollectionHost {
  private readonly client: MongoClient;
  private readonly db: Db;
  private readonly pingTimeoutMs: number;
  private readonly handles = new Map<string, MongoDocCollection<Doc>>();
  private connectedOnce = false;
  private connecting: Promise<void> | undefined;
  private closed = false;

  constructor(options: MongoDocumentStoreOptions) {
    this.client = new MongoClient(options.url, {
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5000,
      connectTimeoutMS: 5000,
      // Documents are JSON-normalised before they are written; this only keeps the driver
      // from turning a stray undefined into null.
      ignoreUndefined: true,
    });
    this.db = this.client.db(options.database);
    this.pingTimeoutMs = options.pingTimeoutMs ?? 2000;
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let handle = this.handles.get(name);
    if (!handle) {
      assertCollectionName(name);
      handle = new MongoDocCollection<Doc>(this, name);
      this.handles.set(name, handle);
    }
    return handle as unknown as Collection<T>;
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    const descriptions = indexes.map(toIndexDescription).filter((d) => d !== null);
    if (descriptions.length === 0) return;
    try {
      // createIndexes is a no-op for an index that exists with the same key and options.
      await (await this.raw(collection)).createIndexes(descriptions);
    } catch (error) {
      if (duplicateKey(error)) throw new DuplicateKeyError(collection, '', { cause: error });
      throw error;
    }
  }

  async dropCollection(name: string): Promise<void> {
    assertCollectionName(name);
    await this.connect();
    try {
      await this.db.dropCollection(name);
    } catch (error) {
      if ((error as { code?: unknown }).code === 26) return; // NamespaceNotFound
      throw error;
    }
  }

  async listCollections(): Promise<string[]> {
    await this.connect();
    const infos = await this.db.listCollections({}, { nameOnly: true }).toArray();
    return infos
      .filter((info) => info.type !== 'view' && !info.name.startsWith('system.'))
      .map((info) => info.name)
      .sort();
  }

  async applyBatch(ops: WriteOp[]): Promise<void> {
    for (const op of ops) assertCollectionName(op.collection);
    let i = 0;
    while (i < ops.length) {
      const op = ops[i]!;
      if (op.kind === 'cas') {
        await this.cas(op);
        i++;
        continue;
      }
      // The longest run of upserts/deletes on this collection.
      let j = i + 1;
      while (j < ops.length && j - i < BULK_CHUNK && ops[j]!.kind !== 'cas' && ops[j]!.collection === op.collection)
        j++;
      await this.bulk(op.collection, ops.slice(i, j) as Array<Exclude<WriteOp, { kind: 'cas' }>>);
      i = j;
    }
  }

  async ping(): Promise<void> {
    const signal = AbortSignal.timeout(this.pingTimeoutMs);
    const aborted = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
    );
    aborted.catch(() => undefined);
    try {
      // A first connection still in progress goes on after the timeout; the next call reuses it.
      await Promise.race([this.connect(), aborted]);
      await this.db.command({ ping: 1 }, { signal });
    } catch (error) {
      const reason = signal.aborted ? `no answer within ${this.pingTimeoutMs} ms` : (error as Error).message;
      throw new Error(`MongoDB ping failed: ${reason}`, { cause: error });
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.client.close();
  }

  /**
   * The connected database, for features that need MongoDB's own operations next to the read
   * models (the platform's rate-limit counters: atomic `$inc` with a TTL). Connects like every
   * other operation; the client stays owned (and closed) by this store.
   */
  async database(): Promise<Db> {
    await this.connect();
    return this.db;
  }

  // ---- MongoCollectionHost: used by MongoDocCollection ------------------------------------

  /** @internal */
  async raw(name: string): Promise<MongoCollection<StoredDoc>> {
    assertCollectionName(name);
    await this.connect();
    return this.db.collection<StoredDoc>(name);
  }

  /**
   * Connects explicitly until a first connection succeeds. The driver's implicit connect on
   * first use closes its topology when the server is unreachable and then answers every later
   * operation with "Topology is closed", so a service started before MongoDB would never
   * recover. Once connected, the driver's own monitoring handles outages and failovers.
   */
  private async connect(): Promise<void> {
    this.assertOpen();
    if (this.connectedOnce) return;
    this.connecting ??= this.client
      .connect()
      .then(() => {
        this.connectedOnce = true;
      })
      .finally(() => {
        this.connecting = undefined;
      });
    await this.connecting;
  }

  /** @internal */
  async find(
    collection: string,
    filter: Filter | undefined,
    options: FindOptions | undefined,
  ): Promise<FindResult<Doc>> {
    const limit = pageSize(options?.limit);
    const sort = normalizeSort(options?.sort);
    let query = toMongoFilter(parseFilter(filter));
    if (options?.after) {
      const keyset = keysetFilter(sort, decodeCursor(sort, options.after));
      if (keyset === null) return { items: [], nextCursor: null };
      query = Object.keys(query).length === 0 ? keyset : { $and: [query, keyset] };
    }
    const stored = await (
      await this.raw(collection)
    )
      .find(query, { sort: toMongoSort(sort), limit: limit + 1 })
      .toArray();
    const items = stored.map((d) => fromStored<Doc>(d));
    if (items.length <= limit) return { items, nextCursor: null };
    items.length = limit;
    return { items, nextCursor: encodeCursor(sort, items[limit - 1]!) };
  }

  /** @internal Insert or replace; a unique index violation is DuplicateKeyError. */
  async upsert(collection: string, doc: Doc): Promise<void> {
    const stored = toStored(doc);
    const raw = await this.raw(collection);
    // Two concurrent upserts of a new id can both miss and both insert: the loser's E11000 on
    // _id means the document now exists, so the retry replaces it.
    for (let attempt = 0; ; attempt++) {
      try {
        await raw.replaceOne({ _id: doc.id }, replacementOf(stored), { upsert: true });
        return;
      } catch (error) {
        const dup = duplicateKey(error);
        if (dup === 'id' && attempt < 3) continue;
        if (dup) throw new DuplicateKeyError(collection, doc.id, { cause: error });
        throw error;
      }
    }
  }

  /** @internal */
  async insertIfAbsent(collection: string, doc: Doc): Promise<boolean> {
    const stored = toStored(doc);
    try {
      await (await this.raw(collection)).insertOne(stored);
      return true;
    } catch (error) {
      const dup = duplicateKey(error);
      if (dup === 'id') return false;
      if (dup) throw new DuplicateKeyError(collection, doc.id, { cause: error });
      throw error;
    }
  }

  /**
   * @internal One updateOne with the condition in its filter; the matched count says whether it
   * wrote. MongoDB applies a single-document update atomically and re-checks the filter after a
   * write conflict, so of concurrent calls that falsify each other's condition one matches.
   */
  async updateIf(collection: string, id: string, where: Filter, set: Record<string, unknown>): Promise<boolean> {
    assertDocId(id);
    const condition = toMongoFilter(parseFilter(where));
    const fields = Object.fromEntries(parseSet(set));
    const filter = Object.keys(condition).length === 0 ? { _id: id } : { $and: [{ _id: id }, condition] };
    try {
      const result = await (await this.raw(collection)).updateOne(filter, { $set: fields });
      return result.matchedCount === 1;
    } catch (error) {
      if (duplicateKey(error)) throw new DuplicateKeyError(collection, id, { cause: error });
      throw error;
    }
  }

  // ---- internals -----------------------------------------------------------------------

  private async cas(op: Extract<WriteOp, { kind: 'cas' }>): Promise<void> {
    const stored = toStored(op.doc);
    const raw = await this.raw(op.collection);
    try {
      if (op.expect === null) {
        await raw.insertOne(stored);
        return;
      }
      const result = await raw.replaceOne(casFilter(op.doc.id, op.expect), replacementOf(stored));
      if (result.matchedCount === 0) throw new ConcurrentModificationError(op.collection, op.doc.id);
    } catch (error) {
      if (error instanceof ConcurrentModificationError) throw error;
      const dup = duplicateKey(error);
      if (dup === 'id') throw new ConcurrentModificationError(op.collection, op.doc.id);
      if (dup) throw new DuplicateKeyError(op.collection, op.doc.id, { cause: error });
      throw error;
    }
  }

  /**
   * Upserts and deletes of one collection as ordered bulkWrites. An ordered bulk stops at its
   * first failing op (the ones before it are applied): a duplicate `_id` from a guarded upsert
   * means "a newer version is stored", so that op is skipped and the rest resumes after it.
   */
  private async bulk(collection: string, ops: Array<Exclude<WriteOp, { kind: 'cas' }>>): Promise<void> {
    const models = ops.map(toBulkModel);
    const raw = await this.raw(collection);
    let start = 0;
    let retries = 0;
    while (start < models.length) {
      try {
        await raw.bulkWrite(models.slice(start), { ordered: true });
        return;
      } catch (error) {
        if (!(error instanceof MongoBulkWriteError)) throw error;
        const writeError = Array.isArray(error.writeErrors) ? error.writeErrors[0] : error.writeErrors;
        if (!writeError) throw error;
        const index = start + writeError.index;
        const op = ops[index]!;
        const dup = duplicateKey({ code: writeError.code, errmsg: writeError.errmsg });
        if (dup === 'id' && op.kind === 'upsert' && op.guardPosition !== undefined) {
          start = index + 1; // the guard held: skip this op
          continue;
        }
        if (dup === 'id' && op.kind === 'upsert' && retries++ < 3) {
          start = index; // an unguarded upsert lost an insert race: the retry replaces
          continue;
        }
        if (dup) throw new DuplicateKeyError(collection, op.kind === 'upsert' ? op.doc.id : op.id, { cause: error });
        throw error;
      }
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('MongoDocumentStore is closed');
  }
}

function toBulkModel(op: Exclude<WriteOp, { kind: 'cas' }>): AnyBulkWriteOperation<StoredDoc> {
  if (op.kind === 'upsert') {
    const replacement = replacementOf(toStored(op.doc));
    if (op.guardPosition === undefined) {
      return { replaceOne: { filter: { _id: op.doc.id }, replacement, upsert: true } };
    }
    replacement._position = op.guardPosition;
    return { replaceOne: { filter: guardFilter(op.doc.id, op.guardPosition), replacement, upsert: true } };
  }
  return {
    deleteOne: { filter: op.guardPosition === undefined ? { _id: op.id } : guardFilter(op.id, op.guardPosition) },
  };
}
