import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  type ApplyBatchOptions,
  ConcurrentModificationError,
  InvalidFilterError,
  type Collection,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type FindResult,
  type IndexSpec,
  type Scalar,
  type WriteOp,
} from '../document-store.port.js';
import { normalizeSort, parseFilter } from '../query/document-filter.js';
import { assertDocId, casMatches, checkDoc, parseSet } from '../query/document-update.js';
import { SqliteCollection, type SqliteCollectionHost } from './sqlite-document-collection.js';
import {
  equalityShape,
  findStatements,
  indexColumnsSql,
  page,
  pageSize,
  whereSql,
  type CompiledFind,
} from './sqlite-document-query.js';
import { collectionOf, mapError, SqliteTables, tableName } from './sqlite-document-tables.js';

export interface SqliteDocumentStoreOptions {
  /** The SQLite file, normally the event store's. */
  path: string;
  /** How long a write waits for another connection's write lock. Default 5000 ms. */
  busyTimeoutMs?: number;
}

/**
 * Embedded document store: JSON documents in the event store's SQLite file, on a connection of
 * its own (WAL, synchronous=FULL: a resolved write is on disk).
 *
 * One table per collection, `doc_{name}` (id TEXT PRIMARY KEY, body JSONB) WITHOUT ROWID:
 * - a lookup by id is one B-tree seek (no rowid indirection), the common read of read models;
 * - declared indexes are plain expression indexes on that table, and every secondary entry of
 *   a WITHOUT ROWID table ends with the primary key, so an index on (a) also serves the
 *   `ORDER BY a, id` of keyset pagination without sorting;
 * - dropping a collection (an old projection generation) is a DROP TABLE, not a delete of
 *   every row of a shared table, and `listCollections` reads the schema.
 * A single shared table with a collection column would put that column first in every index
 * and make drops cost a full delete. Bodies are JSONB: json_extract on it skips the text parse
 * (filter scans about twice as fast), for the cost of json() on the way out.
 */
export class SqliteDocumentStore implements DocumentStore, SqliteCollectionHost {
  private readonly db: Database.Database;
  private readonly tables: SqliteTables;
  /**
   * Compiled finds by shape (see `equalityShape`): the read models' common query, "these fields
   * equal these strings, in this order, first N", skips parsing and SQL building (half the cost
   * of an indexed find that returns little).
   */
  private readonly shapes = new Map<string, CompiledFind>();
  private readonly handles = new Map<string, SqliteCollection<Doc>>();
  /** Toggled around a rebuildable batch: `synchronous` is per connection and read at COMMIT. */
  private readonly syncNormal: Database.Statement;
  private readonly syncFull: Database.Statement;
  private closed = false;

  constructor(options: SqliteDocumentStoreOptions) {
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.pragma('cache_size = -16000');
    this.tables = new SqliteTables(this.db);
    this.syncNormal = this.db.prepare('PRAGMA synchronous = NORMAL');
    this.syncFull = this.db.prepare('PRAGMA synchronous = FULL');
  }

  collection<T extends Doc = Doc>(name: string): Collection<T> {
    let handle = this.handles.get(name);
    if (!handle) {
      tableName(name);
      handle = new SqliteCollection<Doc>(this, name);
      this.handles.set(name, handle);
    }
    return handle as unknown as Collection<T>;
  }

  async ensureIndexes(collection: string, indexes: IndexSpec[]): Promise<void> {
    const table = tableName(collection);
    for (const spec of indexes) {
      if (!spec.fields?.length) throw new InvalidFilterError('An index needs at least one field');
      const columns = indexColumnsSql(spec);
      const name = `${table}__ix_${createHash('sha1')
        .update(`${spec.unique ? 'u' : ''}${columns}`)
        .digest('hex')
        .slice(0, 12)}`;
      this.tables.write(collection, () => {
        try {
          this.db.exec(
            `CREATE ${spec.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS "${name}" ON "${table}" (${columns})`,
          );
        } catch (error) {
          throw mapError(error, collection, '');
        }
      });
    }
  }

  async dropCollection(name: string): Promise<void> {
    const table = tableName(name);
    this.db.exec(`DROP TABLE IF EXISTS "${table}"`);
    this.tables.dropped(table);
  }

  async listCollections(): Promise<string[]> {
    const names = this.tables
      .stmt(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'doc\\_%' ESCAPE '\\' ORDER BY name`)
      .pluck()
      .all() as string[];
    return names.map(collectionOf);
  }

  async applyBatch(ops: WriteOp[], options?: ApplyBatchOptions): Promise<void> {
    if (ops.length === 0) return;
    for (const op of ops) tableName(op.collection);
    const run = this.db.transaction(() => {
      for (const op of ops) {
        this.tables.ensure(op.collection);
        switch (op.kind) {
          case 'upsert':
            this.upsertSync(op.collection, op.doc, op.guardPosition);
            break;
          case 'delete':
            this.deleteSync(op.collection, op.id, op.guardPosition);
            break;
          case 'cas':
            this.casSync(op.collection, op.doc, op.expect);
            break;
        }
      }
    });
    // IMMEDIATE takes the write lock up front: a deferred transaction that reads first could
    // fail to upgrade (SQLITE_BUSY without waiting) when another process committed meanwhile.
    if (!options?.rebuildable) return this.tables.retryOnMissingTable(() => run.immediate());
    // Derived data (a projection batch): no fsync of its own (see ApplyBatchOptions). Only this
    // transaction: idempotency records, sessions, grants and leases on this connection stay FULL.
    this.syncNormal.run();
    try {
      this.tables.retryOnMissingTable(() => run.immediate());
    } finally {
      this.syncFull.run();
    }
  }

  /** The connection's `synchronous` level (2 = FULL); for tests that check it is restored. */
  synchronousLevel(): number {
    return this.db.pragma('synchronous', { simple: true }) as number;
  }

  async ping(): Promise<void> {
    this.tables.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.tables.clear();
    this.shapes.clear();
    this.db.close();
  }

  /**
   * The statements one `find` would run, each with its EXPLAIN QUERY PLAN lines (for tests that
   * check a declared index is used; not part of the port).
   */
  explainFind(collection: string, filter?: Filter, options?: FindOptions): Array<{ sql: string; plan: string[] }> {
    return findStatements(tableName(collection), filter, options).map(({ sql, params }) => ({
      sql,
      plan: (this.db.prepare(`EXPLAIN QUERY PLAN ${sql} LIMIT 101`).all(...params) as Array<{ detail: string }>).map(
        (r) => r.detail,
      ),
    }));
  }

  // ---- SqliteCollectionHost: the synchronous operations behind each Collection ---------------

  /** @internal */
  getSync(collection: string, id: string): Doc | null {
    return this.tables.read(collection, null, () => {
      const json = this.tables
        .stmt(`SELECT json(body) FROM "${tableName(collection)}" WHERE id = ?`)
        .pluck()
        .get(id) as string | undefined;
      return json === undefined ? null : (JSON.parse(json) as Doc);
    });
  }

  /** @internal */
  getManySync(collection: string, ids: string[]): Doc[] {
    if (ids.length === 0) return [];
    const rows = this.tables.read(
      collection,
      [] as string[],
      () =>
        this.tables
          .stmt(`SELECT json(body) FROM "${tableName(collection)}" WHERE id IN (SELECT value FROM json_each(?))`)
          .pluck()
          .all(JSON.stringify(ids)) as string[],
    );
    const byId = new Map<string, Doc>();
    for (const json of rows) {
      const doc = JSON.parse(json) as Doc;
      byId.set(doc.id, doc);
    }
    const out: Doc[] = [];
    for (const id of new Set(ids)) {
      const doc = byId.get(id);
      if (doc) out.push(doc);
    }
    return out;
  }

  /** @internal */
  upsertOne(collection: string, doc: Doc): void {
    this.tables.write(collection, () => this.upsertSync(collection, doc, undefined));
  }

  /** @internal */
  insertIfAbsentOne(collection: string, doc: Doc): boolean {
    checkDoc(doc);
    return this.tables.write(collection, () => {
      try {
        const r = this.tables
          .stmt(`INSERT INTO "${tableName(collection)}" (id, body) VALUES (?, jsonb(?)) ON CONFLICT (id) DO NOTHING`)
          .run(doc.id, JSON.stringify(doc));
        return r.changes === 1;
      } catch (error) {
        throw mapError(error, collection, doc.id);
      }
    });
  }

  /**
   * @internal One UPDATE with the condition in its WHERE: the check and the write are one
   * statement under SQLite's write lock, so no other connection or process writes in between.
   */
  updateIfOne(collection: string, id: string, where: Filter, set: Record<string, unknown>): boolean {
    assertDocId(id);
    const condition = whereSql(parseFilter(where));
    const fields = parseSet(set);
    const pairs = fields.map(() => '?, json(?)').join(', ');
    const params = fields.flatMap(([field, value]) => [`$.${field}`, JSON.stringify(value)]);
    return this.tables.read(collection, false, () => {
      try {
        return (
          this.tables
            .stmt(
              `UPDATE "${tableName(collection)}" SET body = jsonb_set(body, ${pairs}) WHERE id = ? AND (${condition.sql})`,
            )
            .run(...params, id, ...condition.params).changes === 1
        );
      } catch (error) {
        throw mapError(error, collection, id);
      }
    });
  }

  /** @internal */
  deleteOne(collection: string, id: string): boolean {
    return this.tables.read(collection, false, () => this.deleteSync(collection, id, undefined));
  }

  /** @internal */
  findSync(collection: string, filter: Filter | undefined, options: FindOptions | undefined): FindResult<Doc> {
    const limit = pageSize(options?.limit);
    const shape = options?.after === undefined ? equalityShape(collection, filter, options?.sort, limit) : undefined;
    if (shape) {
      const compiled = this.shapes.get(shape.key);
      if (compiled) return this.findCompiled(collection, compiled, shape.params, limit);
      // A valid find of a collection known to be missing: nothing to compile.
      if (this.tables.isKnownMissing(tableName(collection))) return { items: [], nextCursor: null };
    }
    const sort = normalizeSort(options?.sort);
    const statements = findStatements(tableName(collection), filter, options);
    const items: Doc[] = [];
    this.tables.read(collection, undefined, () => {
      for (const { sql, params } of statements) {
        // The LIMIT is an integer literal (1..1001), not a bound parameter: with a bound LIMIT this
        // SQLite build (STAT4) re-prepares the statement at each execution, which cost ~10 µs per
        // find, twenty times the indexed query itself.
        const statement = this.tables.stmt(`${sql} LIMIT ${limit + 1 - items.length}`).pluck();
        if (shape && statements.length === 1) this.rememberShape(shape.key, { statement, sort });
        const rows = statement.all(...params) as string[];
        for (const json of rows) items.push(JSON.parse(json) as Doc);
        if (items.length > limit) break;
      }
    });
    return page(items, limit, sort);
  }

  /** A find whose statement was compiled for the same shape before: bind and run. */
  private findCompiled(collection: string, compiled: CompiledFind, params: string[], limit: number): FindResult<Doc> {
    const rows = this.tables.read(collection, [] as string[], () => compiled.statement.all(...params) as string[]);
    const items: Doc[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) items[i] = JSON.parse(rows[i]!) as Doc;
    return page(items, limit, compiled.sort);
  }

  private rememberShape(key: string, compiled: CompiledFind): void {
    if (this.shapes.size >= 500) this.shapes.delete(this.shapes.keys().next().value!);
    this.shapes.set(key, compiled);
  }

  /** @internal */
  countSync(collection: string, filter: Filter | undefined): number {
    const where = whereSql(parseFilter(filter));
    return this.tables.read(
      collection,
      0,
      () =>
        this.tables
          .stmt(`SELECT count(*) FROM "${tableName(collection)}" WHERE ${where.sql}`)
          .pluck()
          .get(...where.params) as number,
    );
  }

  /** @internal */
  deleteManySync(collection: string, filter: Filter): number {
    if (filter === undefined) throw new InvalidFilterError('deleteMany needs a filter ({} deletes every document)');
    const where = whereSql(parseFilter(filter));
    return this.tables.read(
      collection,
      0,
      () => this.tables.stmt(`DELETE FROM "${tableName(collection)}" WHERE ${where.sql}`).run(...where.params).changes,
    );
  }

  // ---- internals -----------------------------------------------------------------------

  private upsertSync(collection: string, doc: Doc, guardPosition: number | undefined): void {
    checkDoc(doc);
    const table = tableName(collection);
    try {
      if (guardPosition === undefined) {
        this.tables
          .stmt(
            `INSERT INTO "${table}" (id, body) VALUES (?, jsonb(?)) ON CONFLICT (id) DO UPDATE SET body = excluded.body`,
          )
          .run(doc.id, JSON.stringify(doc));
      } else {
        this.tables
          .stmt(
            `INSERT INTO "${table}" (id, body) VALUES (?, jsonb(?)) ON CONFLICT (id) DO UPDATE SET body = excluded.body ` +
              `WHERE coalesce(json_extract("${table}".body, '$._position'), -1) < ?`,
          )
          .run(doc.id, JSON.stringify({ ...doc, _position: guardPosition }), guardPosition);
      }
    } catch (error) {
      throw mapError(error, collection, doc.id);
    }
  }

  private deleteSync(collection: string, id: string, guardPosition: number | undefined): boolean {
    const table = tableName(collection);
    if (guardPosition === undefined)
      return this.tables.stmt(`DELETE FROM "${table}" WHERE id = ?`).run(id).changes === 1;
    return (
      this.tables
        .stmt(`DELETE FROM "${table}" WHERE id = ? AND coalesce(json_extract(body, '$._position'), -1) < ?`)
        .run(id, guardPosition).changes === 1
    );
  }

  private casSync(collection: string, doc: Doc, expect: Record<string, Scalar> | null): void {
    const json = this.tables
      .stmt(`SELECT json(body) FROM "${tableName(collection)}" WHERE id = ?`)
      .pluck()
      .get(doc.id) as string | undefined;
    const current = json === undefined ? null : (JSON.parse(json) as Doc);
    if (!casMatches(current, expect)) throw new ConcurrentModificationError(collection, doc.id);
    this.upsertSync(collection, doc, undefined);
  }
}
