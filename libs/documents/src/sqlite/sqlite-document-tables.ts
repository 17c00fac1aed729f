import type Database from 'better-sqlite3';
import { DuplicateKeyError } from '../document-store.port.js';

const TABLE_PREFIX = 'doc_';
const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

/** The table of a collection (`doc_{name}`); an invalid name throws. */
export function tableName(collection: string): string {
  if (typeof collection !== 'string' || !COLLECTION_NAME.test(collection)) {
    throw new TypeError(`Invalid collection name ${JSON.stringify(collection)}`);
  }
  return TABLE_PREFIX + collection;
}

/** The collection a `doc_*` table holds. */
export function collectionOf(table: string): string {
  return table.slice(TABLE_PREFIX.length);
}

export function isMissingTable(error: unknown): boolean {
  return error instanceof Error && /no such table: (main\.)?doc_/.test(error.message);
}

/** SQLite's unique-index violation as the port's DuplicateKeyError; other errors as they are. */
export function mapError(error: unknown, collection: string, id: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return new DuplicateKeyError(collection, id, { cause: error });
  return error;
}

/**
 * The `doc_*` tables as one connection knows them, and its statement cache. Another process may
 * create or drop a table at any time: reads of a missing table see it empty, and a write to a
 * table dropped meanwhile recreates it and runs again.
 */
export class SqliteTables {
  private readonly statements = new Map<string, Database.Statement>();
  /** Tables known to exist on this connection (another process may still drop one: see retry). */
  private readonly known = new Set<string>();
  /**
   * Tables a read found missing, each with the schema version it was missing at. A read of a
   * missing table throws inside SQLite's prepare (about 20 µs, and it cannot be cached); while
   * the schema version is unchanged (no process created or dropped anything) the table is still
   * missing, and one cached PRAGMA read answers instead.
   */
  private readonly missing = new Map<string, number>();

  constructor(private readonly db: Database.Database) {}

  stmt(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      // Filters make the SQL vary; keep the cache bounded (oldest first out).
      if (this.statements.size >= 500) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  ensure(collection: string): void {
    const table = tableName(collection);
    if (this.known.has(table)) return;
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS "${table}" (id TEXT PRIMARY KEY NOT NULL, body BLOB NOT NULL) WITHOUT ROWID`,
    );
    this.known.add(table);
    this.missing.delete(table);
  }

  /** This connection dropped `table`: forget it and the statements that name it. */
  dropped(table: string): void {
    this.known.delete(table);
    for (const sql of this.statements.keys()) if (sql.includes(`"${table}"`)) this.statements.delete(sql);
  }

  clear(): void {
    this.statements.clear();
  }

  /** Reads of a collection that does not exist (never written, or dropped) see it empty. */
  read<T>(collection: string, empty: T, fn: () => T): T {
    const table = tableName(collection);
    if (this.isKnownMissing(table)) return empty;
    try {
      return fn();
    } catch (error) {
      if (!isMissingTable(error)) throw error;
      this.known.delete(table);
      if (this.missing.size >= 1000) this.missing.clear();
      this.missing.set(table, this.schemaVersion());
      return empty;
    }
  }

  /** Whether `table` was missing at the current schema version (so it still is). */
  isKnownMissing(table: string): boolean {
    const missingAt = this.missing.get(table);
    if (missingAt === undefined) return false;
    if (missingAt === this.schemaVersion()) return true;
    this.missing.delete(table);
    return false;
  }

  write<T>(collection: string, fn: () => T): T {
    return this.retryOnMissingTable(() => {
      this.ensure(collection);
      return fn();
    });
  }

  /** Another process may drop a table this connection believes exists: forget, recreate, retry once. */
  retryOnMissingTable<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (!isMissingTable(error)) throw error;
      this.known.clear();
      return fn();
    }
  }

  /** SQLite's schema cookie: changes with every CREATE or DROP, by any connection. */
  private schemaVersion(): number {
    return this.stmt('PRAGMA schema_version').pluck().get() as number;
  }
}
