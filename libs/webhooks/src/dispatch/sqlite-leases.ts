import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { type AttemptLease, type DeliveryLeases, MARK_RETENTION_MS } from './leases.js';

/**
 * Attempt leases for the embedded mode, shared by every process of one data directory (two
 * workers, or the api with projections and a worker: ADR 0067), in a SQLite file of their own
 * (`webhook-leases.sqlite`; `:memory:` for tests). A claim is one statement: insert, or take over
 * a lease that expired, and see whose it is now. Written without fsync: a lease is worth a few
 * ms of the event loop per attempt, not a disk flush (the document store's durable write cost
 * ~4 ms each, a tenth of the dispatcher's throughput). A SIGKILL loses nothing (the writes are in
 * the operating system's cache, ADR 0070); a power cut may forget leases and sending marks, which
 * only makes an attempt whose outcome was not recorded go again (at least once).
 *
 * Per attempt two write transactions (the claim with its sending mark, and the completion), each
 * ~15 µs on this VM (the WAL append and its locks); the mark was a third until ADR 0086. Batching
 * the completions in one transaction per 5 ms saved ~9 µs per attempt, not worth a completion
 * that other processes see late.
 */
export class SqliteDeliveryLeases implements DeliveryLeases {
  readonly owner = randomUUID();
  private readonly db: Database.Database;
  private readonly claimStatement: Database.Statement<
    [string, string, number, number],
    { owner: string; sending_at: number | null }
  >;
  private readonly markedClaim: (
    key: string,
    expiresAt: number,
    now: number,
    sendingAt: number,
  ) => number | null | false;
  private readonly completeStatement: Database.Statement<[string, string, number]>;
  private readonly releaseStatement: Database.Statement<[number, number | null, string, string, number]>;
  private readonly interruptedStatement: Database.Statement<[number, number], { id: string }>;
  private readonly sweepStatement: Database.Statement<[number, number]>;

  constructor(
    options: { path: string; busyTimeoutMs?: number },
    private readonly now: () => number = () => Date.now(),
  ) {
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS webhook_leases (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL, sending_at INTEGER) WITHOUT ROWID',
    );
    // A file written before the sending mark existed (ADR 0070).
    // Two processes may open such a file at once: the second finds the column added.
    const columns = this.db.pragma('table_info(webhook_leases)') as Array<{ name: string }>;
    if (!columns.some((c) => c.name === 'sending_at')) {
      try {
        this.db.exec('ALTER TABLE webhook_leases ADD COLUMN sending_at INTEGER');
      } catch (error) {
        if (!/duplicate column name/i.test(error instanceof Error ? error.message : '')) throw error;
      }
    }
    // Takes the lease when absent or expired, keeping an earlier holder's sending mark; RETURNING
    // gives a row only when this statement wrote.
    this.claimStatement = this.db.prepare(
      'INSERT INTO webhook_leases (id, owner, expires_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE webhook_leases.expires_at <= ? RETURNING owner, sending_at',
    );
    // A sender's claim: read the lease and write it with the mark in one IMMEDIATE transaction
    // (the write lock taken first, so no other process writes in between). The read tells an
    // earlier holder's mark from this one, which one UPSERT … RETURNING cannot (it returns the
    // new row only, and two marks may carry the same millisecond).
    const current = this.db.prepare<[string], { expires_at: number; sending_at: number | null }>(
      'SELECT expires_at, sending_at FROM webhook_leases WHERE id = ?',
    );
    const put = this.db.prepare<[string, string, number, number]>(
      'INSERT OR REPLACE INTO webhook_leases (id, owner, expires_at, sending_at) VALUES (?, ?, ?, ?)',
    );
    const markedClaim = this.db.transaction((key: string, expiresAt: number, now: number, sendingAt: number) => {
      const row = current.get(key);
      if (row && row.expires_at > now) return false;
      const earlier = row?.sending_at ?? null;
      put.run(key, this.owner, expiresAt, earlier ?? sendingAt);
      return earlier;
    });
    this.markedClaim = (...args) => markedClaim.immediate(...args);
    this.completeStatement = this.db.prepare(
      'DELETE FROM webhook_leases WHERE id = ? AND owner = ? AND expires_at = ?',
    );
    this.releaseStatement = this.db.prepare(
      'UPDATE webhook_leases SET expires_at = ?, sending_at = ? WHERE id = ? AND owner = ? AND expires_at = ?',
    );
    // Few rows: a completed lease is deleted, an unmarked expired one goes at the next sweep.
    this.interruptedStatement = this.db.prepare(
      'SELECT id FROM webhook_leases WHERE sending_at IS NOT NULL AND expires_at <= ? ORDER BY sending_at LIMIT ?',
    );
    this.sweepStatement = this.db.prepare(
      'DELETE FROM webhook_leases WHERE (sending_at IS NULL AND expires_at < ?) OR expires_at < ?',
    );
  }

  async claim(key: string, ttlMs: number, sendingAt?: Date): Promise<AttemptLease | null> {
    const t = this.now();
    if (sendingAt) {
      const earlier = this.markedClaim(key, t + ttlMs, t, sendingAt.getTime());
      return earlier === false ? null : { key, expiresAt: t + ttlMs, interruptedSendAt: earlier };
    }
    const row = this.claimStatement.get(key, this.owner, t + ttlMs, t);
    return row?.owner === this.owner ? { key, expiresAt: t + ttlMs, interruptedSendAt: row.sending_at } : null;
  }

  async complete(lease: AttemptLease): Promise<void> {
    this.completeStatement.run(lease.key, this.owner, lease.expiresAt);
  }

  async release(lease: AttemptLease): Promise<void> {
    this.releaseStatement.run(this.now(), lease.interruptedSendAt, lease.key, this.owner, lease.expiresAt);
  }

  async interrupted(limit: number): Promise<string[]> {
    return this.interruptedStatement.all(this.now(), limit).map((row) => row.id);
  }

  async sweep(): Promise<void> {
    const t = this.now();
    this.sweepStatement.run(t, t - MARK_RETENTION_MS);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
