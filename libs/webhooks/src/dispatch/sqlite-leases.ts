import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { DeliveryLeases } from './leases.js';

/**
 * Attempt leases for the embedded mode, shared by every process of one data directory (two
 * workers, or the api with projections and a worker: ADR 0067), in a SQLite file of their own
 * (`webhook-leases.sqlite`). A claim is one statement: insert, or take over a lease that expired,
 * and see whose it is now. Written without fsync: a lease is worth a few ms of the event loop
 * per attempt, not a disk flush (the document store's durable write cost ~4 ms each, a tenth of
 * the dispatcher's throughput); a power cut may forget leases, which only makes an attempt whose
 * outcome was not recorded go again (at least once, as after any crash).
 */
export class SqliteDeliveryLeases implements DeliveryLeases {
  readonly owner = randomUUID();
  private readonly db: Database.Database;
  private readonly claimStatement: Database.Statement<[string, string, number, number], { owner: string }>;
  private readonly releaseStatement: Database.Statement<[string, string]>;
  private readonly sweepStatement: Database.Statement<[number]>;

  constructor(
    options: { path: string; busyTimeoutMs?: number },
    private readonly now: () => number = () => Date.now(),
  ) {
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS webhook_leases (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    // Takes the lease when absent or expired; RETURNING gives a row only when this statement wrote.
    this.claimStatement = this.db.prepare(
      'INSERT INTO webhook_leases (id, owner, expires_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at WHERE webhook_leases.expires_at <= ? RETURNING owner',
    );
    this.releaseStatement = this.db.prepare('UPDATE webhook_leases SET expires_at = 0 WHERE id = ? AND owner = ?');
    this.sweepStatement = this.db.prepare('DELETE FROM webhook_leases WHERE expires_at < ?');
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const t = this.now();
    return this.claimStatement.get(key, this.owner, t + ttlMs, t)?.owner === this.owner;
  }

  async release(key: string): Promise<void> {
    this.releaseStatement.run(key, this.owner);
  }

  async sweep(): Promise<void> {
    this.sweepStatement.run(this.now() - 60 * 60_000);
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
