import Database from 'better-sqlite3';
import { prepareAppend, type PreparedAppend } from '../append.validation.js';
import {
  EventStoreUnavailableError,
  type AllFilter,
  type AllSubscription,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type ReadAllOptions,
  type ReadStreamOptions,
  type RecordedEvent,
  type SubscribeToAllOptions,
} from '../event-store.port.js';
import { SqliteAppendWriter } from './sqlite-append-writer.js';
import { SqliteAllSubscription, type SubscriptionHost } from './sqlite-all-subscription.js';
import { SqliteCommitTail } from './sqlite-commit-tail.js';
import { EVENT_COLUMNS, EVENT_STORE_SCHEMA, type EventRow } from './sqlite-event-store.schema.js';

export interface SqliteEventStoreOptions {
  /** SQLite file; shared with the document store, which opens its own connection. */
  path: string;
  /** How often subscriptions look for commits made by other processes; default 50 ms. */
  pollIntervalMs?: number;
  /** How long a write waits for another process's write lock before failing; default 5000 ms. */
  busyTimeoutMs?: number;
}

type Statement = Database.Statement<unknown[], unknown>;

/** Rows per read page: big enough to amortise the query, small enough to bound memory. */
const PAGE_SIZE = 1000;
/** Lets the event loop run (I/O, timers) before the next synchronous page of a long read. */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
const MAX_POSITION = Number.MAX_SAFE_INTEGER;
const WAL_AUTOCHECKPOINT_PAGES = 10_000;
/** Events of this process's newest commits kept for live subscriptions (see SqliteCommitTail). */
const TAIL_EVENTS = 20_000;

/**
 * The embedded event store (DESIGN §2) on better-sqlite3.
 *
 * Durability: WAL with `synchronous=FULL`, so COMMIT returns only after the WAL is fsynced; an
 * append's promise resolves only after the COMMIT of the transaction that holds it.
 *
 * Group commit (SqliteAppendWriter): `append` validates, queues and schedules one flush with
 * `setImmediate`, so every append issued before the event loop's next check phase (a whole poll
 * phase of HTTP requests, or all writers woken by the previous commit) lands in ONE transaction
 * and one fsync. Inside it each append is checked against its own expected revision, in arrival
 * order, and a failing one (conflict, duplicate id) is rolled back to its savepoint without
 * touching the others.
 *
 * Position order is commit order: SQLite lets one write transaction run at a time per file
 * (across connections and processes), and AUTOINCREMENT assigns positions inside it, above every
 * position already committed. A transaction that commits later therefore only ever holds higher
 * positions, so a reader that sees position P will never later see a new event below P. Keyset
 * reads (`position > last`) can thus never skip an event; subscriptions rely on it.
 *
 * Live events: this process's commits wake subscriptions at once and are handed to them from
 * memory (SqliteCommitTail), parsed once for all; other processes' commits are found by polling
 * `PRAGMA data_version` (changes whenever another connection commits) and read from the file.
 */
export class SqliteEventStore implements EventStore {
  private readonly db: Database.Database;
  private readonly pollIntervalMs: number;
  private readonly statements = new Map<string, Statement>();
  private readonly selRevision: Statement;
  private readonly selHead: Statement;
  private readonly selDataVersion: Statement;
  private readonly writer: SqliteAppendWriter;
  private closed = false;
  private readonly subscriptions = new Set<SqliteAllSubscription>();
  private poller: NodeJS.Timeout | null = null;
  private lastDataVersion = 0;
  private version = 0;
  private readonly tail = new SqliteCommitTail(TAIL_EVENTS);
  /** Another process may have committed after the tail's newest commit (see readSubscriptionPage). */
  private tailMayBeBehind = true;

  constructor(options: SqliteEventStoreOptions) {
    this.pollIntervalMs = options.pollIntervalMs ?? 50;
    let db: Database.Database | undefined;
    try {
      db = new Database(options.path);
      db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(options.busyTimeoutMs ?? 5000))}`);
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      // Checkpoint (copy the WAL into the file, with its own fsyncs) every ~40 MB of WAL rather
      // than SQLite's default ~4 MB: group commits touch many pages each, and checkpointing
      // 10x less often lifted durable append throughput by about half in test/bench.
      db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      db.exec(EVENT_STORE_SCHEMA);
    } catch (error) {
      db?.close();
      throw new EventStoreUnavailableError(
        `cannot open the event store at ${options.path}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.db = db;
    this.selRevision = this.db.prepare('SELECT max(revision) FROM es_events WHERE stream = ?').pluck();
    this.selHead = this.db.prepare('SELECT coalesce(max(position), 0) FROM es_events').pluck();
    this.selDataVersion = this.db.prepare('PRAGMA data_version').pluck();
    this.writer = new SqliteAppendWriter(this.db, (headBefore, written) => {
      this.tail.add(headBefore, written);
      // Whatever another process committed before this transaction shows as a gap in the tail.
      this.tailMayBeBehind = false;
      this.notify();
    });
  }

  append(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision = 'any'): Promise<AppendResult> {
    if (this.closed) return Promise.reject(new Error('SqliteEventStore is closed'));
    let append: PreparedAppend;
    try {
      append = prepareAppend(stream, events, expectedRevision);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writer.append(stream, append, expectedRevision);
  }

  async *readStream(stream: string, options: ReadStreamOptions = {}): AsyncIterable<RecordedEvent> {
    const backwards = options.direction === 'backwards';
    let remaining = options.maxCount ?? Infinity;
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    let cursor = from === 'start' ? 0 : from === 'end' ? (backwards ? MAX_POSITION : null) : from;
    if (cursor === null) return; // forwards from the end: nothing yet
    const stmt = this.statement(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE stream = ? AND revision ${backwards ? '<=' : '>='} ? ` +
        `ORDER BY revision ${backwards ? 'DESC' : 'ASC'} LIMIT ?`,
    );
    while (remaining > 0 && cursor >= 0) {
      this.assertOpen();
      const limit = Math.min(PAGE_SIZE, remaining);
      const rows = stmt.all(stream, cursor, limit) as EventRow[];
      for (const row of rows) yield this.toRecorded(row);
      if (rows.length < limit) return;
      remaining -= rows.length;
      const last = rows[rows.length - 1]![2];
      cursor = backwards ? last - 1 : last + 1;
      // Reads are synchronous: between pages the event loop runs (other requests, timers), so a
      // long stream slows its own reader only.
      await nextTurn();
    }
  }

  async *readAll(options: ReadAllOptions = {}): AsyncIterable<RecordedEvent> {
    const backwards = options.direction === 'backwards';
    let remaining = options.maxCount ?? Infinity;
    let cursor = backwards ? (options.before ?? MAX_POSITION) : (options.after ?? 0);
    const { clause, params } = filterClause(options.filter);
    const stmt = this.statement(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position ${backwards ? '<' : '>'} ?${clause} ` +
        `ORDER BY position ${backwards ? 'DESC' : 'ASC'} LIMIT ?`,
    );
    while (remaining > 0) {
      this.assertOpen();
      const limit = Math.min(PAGE_SIZE, remaining);
      const rows = stmt.all(cursor, ...params, limit) as EventRow[];
      for (const row of rows) yield this.toRecorded(row);
      if (rows.length < limit) return;
      remaining -= rows.length;
      cursor = rows[rows.length - 1]![0];
      await nextTurn();
    }
  }

  subscribeToAll(options: SubscribeToAllOptions = {}): AllSubscription {
    const store = this;
    const host: SubscriptionHost = {
      get changeVersion() {
        return store.version;
      },
      readSubscriptionPage: (after, filter) => this.readSubscriptionPage(after, filter),
      detach: (subscription) => this.detach(subscription),
    };
    const subscription = new SqliteAllSubscription(host, options.after ?? 0, options.filter, options.onCheckpoint);
    if (this.closed) {
      subscription.end();
      return subscription;
    }
    this.subscriptions.add(subscription);
    // Started before the subscription's first read, so any foreign commit it does not see in
    // that read changes data_version after the poller's baseline and is noticed.
    this.startPoller();
    return subscription;
  }

  async streamRevision(stream: string): Promise<number | null> {
    this.assertOpen();
    return (this.selRevision.get(stream) as number | null) ?? null;
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.selHead.get() as number;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.selHead.get();
  }

  /** Writes the appends still queued, ends subscriptions, closes the file. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.writer.flushAll();
    this.closed = true;
    for (const subscription of [...this.subscriptions]) subscription.end();
    this.stopPoller();
    this.db.close();
  }

  // --- reads and subscriptions --------------------------------------------------------------

  private readSubscriptionPage(
    after: number,
    filter: AllFilter | undefined,
  ): { events: RecordedEvent[]; scannedTo: number; full: boolean } {
    this.assertOpen();
    const fromTail = this.tail.read(after, filter, PAGE_SIZE);
    if (fromTail) {
      // At the tail's end, the file can only hold more if another process committed since,
      // which the poller reports (and so does a poller just started: it knows nothing yet).
      if (this.tailMayBeBehind) fromTail.full = true;
      return fromTail;
    }
    const { clause, params } = filterClause(filter);
    if (!clause) {
      const rows = this.statement(
        `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > ? ORDER BY position LIMIT ${PAGE_SIZE}`,
      ).all(after) as EventRow[];
      return {
        events: rows.map((row) => this.toRecorded(row)),
        scannedTo: rows.length ? rows[rows.length - 1]![0] : after,
        full: rows.length === PAGE_SIZE,
      };
    }
    // With a filter, bound the scan by the head read first: if the page is not full, every
    // position up to the head has been looked at, so the next scan starts past the
    // non-matching rows instead of re-reading them on every wake-up.
    const head = this.selHead.get() as number;
    const rows = this.statement(
      `SELECT ${EVENT_COLUMNS} FROM es_events WHERE position > ? AND position <= ?${clause} ORDER BY position LIMIT ${PAGE_SIZE}`,
    ).all(after, head, ...params) as EventRow[];
    const full = rows.length === PAGE_SIZE;
    return {
      events: rows.map((row) => this.toRecorded(row)),
      scannedTo: full ? rows[rows.length - 1]![0] : Math.max(after, head),
      full,
    };
  }

  private toRecorded(row: EventRow): RecordedEvent {
    return {
      id: row[3],
      stream: row[1],
      revision: row[2],
      position: row[0],
      type: row[4],
      data: JSON.parse(row[5]),
      metadata: row[6] === null ? {} : JSON.parse(row[6]),
      created: row[7],
    };
  }

  private detach(subscription: SqliteAllSubscription): void {
    this.subscriptions.delete(subscription);
    if (this.subscriptions.size === 0) this.stopPoller();
  }

  private notify(): void {
    this.version++;
    for (const subscription of this.subscriptions) subscription.wake();
  }

  private startPoller(): void {
    if (this.poller) return;
    this.lastDataVersion = this.selDataVersion.get() as number;
    this.tailMayBeBehind = true;
    // Kept referenced on purpose: a worker whose only job is a subscription must stay alive.
    this.poller = setInterval(() => {
      if (this.closed) return;
      const dataVersion = this.selDataVersion.get() as number;
      if (dataVersion !== this.lastDataVersion) {
        this.lastDataVersion = dataVersion;
        this.tailMayBeBehind = true;
        this.notify();
      }
    }, this.pollIntervalMs);
  }

  private stopPoller(): void {
    if (!this.poller) return;
    clearInterval(this.poller);
    this.poller = null;
  }

  private statement(sql: string): Statement {
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql).raw();
      this.statements.set(sql, stmt);
    }
    return stmt;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('SqliteEventStore is closed');
  }
}

/** SQL for an `AllFilter`: `instr(x, prefix) = 1` is "starts with", with no LIKE/GLOB escaping. */
function filterClause(filter: AllFilter | undefined): { clause: string; params: string[] } {
  let clause = '';
  const params: string[] = [];
  const any = (column: string, prefixes: string[] | undefined) => {
    if (!prefixes?.length) return;
    clause += ` AND (${prefixes.map(() => `instr(${column}, ?) = 1`).join(' OR ')})`;
    params.push(...prefixes);
  };
  any('type', filter?.eventTypePrefixes);
  any('stream', filter?.streamPrefixes);
  return { clause, params };
}
