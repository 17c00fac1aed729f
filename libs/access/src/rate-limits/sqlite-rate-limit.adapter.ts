import Database from 'better-sqlite3';
import { windowStart, type RateLimitStore } from './rate-limit.port.js';

/** How often, at most, windows that ended are deleted from the file (ms of the hits' clock). */
const SWEEP_EVERY_MS = 60_000;
/** A window is kept this long after it ended: a late hit (a clock a little behind) still counts there. */
const LATE_HITS_MS = 60_000;

interface Counter {
  /** The shared count as of this process's last look (its own flushed hits included). */
  shared: number;
  /** This process's hits not yet added to the file. */
  pending: number;
  /** Epoch ms the window ends. */
  ends: number;
  /** Monotonic ms `shared` was read at. */
  readAt: number;
}

export interface SqliteRateLimitStoreOptions {
  path: string;
  /** How often this process adds its hits to the file (reading the totals back), and how old a
   * total it trusts for a window it hits (default 100 ms). */
  syncMs?: number;
  /** Monotonic ms (default performance.now; tests pass a fake). */
  monotonic?: () => number;
  busyTimeoutMs?: number;
}

/**
 * Counters shared by every process of one embedded data directory (ADR 0067), in a SQLite file
 * of their own (`rate-limits.sqlite`: counting never waits on the event store's write lock).
 *
 * A write per request would cost more than the whole route (tens of µs), so a hit is counted in
 * memory, synchronously (no promise on the hot path): the count answered is the shared total as
 * this process last read it plus its own hits since. Every `syncMs` the hits are added to the
 * file in one transaction and the totals read back; a window this process had not seen yet is
 * read from the file on its first hit. So the limit holds across processes to within what the
 * other processes admit in one sync interval; a single process counts exactly. A process that
 * dies loses at most its last interval's hits (counters, not money). The file is written without
 * fsync: a power cut may forget some hits. Windows that ended are swept once a minute.
 */
export class SqliteRateLimitStore implements RateLimitStore {
  private readonly db: Database.Database;
  private readonly counters = new Map<string, Counter>();
  private readonly add: Database.Statement<[string, number, number], { count: number }>;
  private readonly read: Database.Statement<[string], { count: number }>;
  private readonly flush: () => void;
  private readonly sweepStatement: Database.Statement<[number]>;
  private readonly timer: NodeJS.Timeout;
  private readonly syncMs: number;
  private readonly monotonic: () => number;
  private dirty = false;
  /** Why the last sync failed (null after one that worked): for tests and diagnosis. */
  lastSyncError: unknown = null;
  private lastSweep = 0;
  /** The latest time a hit was counted at (windows end by the hits' clock, as in the in-memory store). */
  private latest = 0;

  constructor(options: SqliteRateLimitStoreOptions) {
    this.syncMs = options.syncMs ?? 100;
    this.monotonic = options.monotonic ?? (() => performance.now());
    this.db = new Database(options.path);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    this.db.exec(
      'CREATE TABLE IF NOT EXISTS rate_limit_counters (id TEXT PRIMARY KEY, count INTEGER NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
    );
    this.add = this.db.prepare(
      'INSERT INTO rate_limit_counters (id, count, expires_at) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET count = count + excluded.count RETURNING count',
    );
    this.read = this.db.prepare('SELECT count FROM rate_limit_counters WHERE id = ?');
    this.sweepStatement = this.db.prepare('DELETE FROM rate_limit_counters WHERE expires_at <= ?');
    const addAll = this.db.transaction(() => {
      const totals: Array<[Counter, number, number]> = [];
      for (const [id, c] of this.counters) {
        if (c.pending === 0) continue;
        totals.push([c, c.pending, this.add.get(id, c.pending, c.ends)!.count]);
      }
      return totals;
    });
    // The counters change only once the transaction committed: a failed one (a full disk, a
    // lock held too long) leaves every hit pending for the next sync.
    this.flush = () => {
      const readAt = this.monotonic();
      for (const [c, added, total] of addAll.immediate()) {
        c.pending -= added;
        c.shared = total;
        c.readAt = readAt;
      }
    };
    this.timer = setInterval(() => this.sync(), this.syncMs);
    this.timer.unref();
  }

  hit(key: string, windowSeconds: readonly number[], now: Date): number[] {
    const counts = new Array<number>(windowSeconds.length);
    for (let i = 0; i < windowSeconds.length; i++) {
      const seconds = windowSeconds[i]!;
      const start = windowStart(seconds, now);
      const id = `${key}:${seconds}:${start}`;
      let c = this.counters.get(id);
      if (!c) {
        c = {
          shared: this.read.get(id)?.count ?? 0,
          pending: 0,
          ends: start + seconds * 1000,
          readAt: this.monotonic(),
        };
        this.counters.set(id, c);
      } else if (this.monotonic() - c.readAt > this.syncMs) {
        // Not hit here for a while: the others' hits since are read now (one read per interval).
        c.shared = this.read.get(id)?.count ?? 0;
        c.readAt = this.monotonic();
      }
      c.pending++;
      counts[i] = c.shared + c.pending;
    }
    this.dirty = true;
    if (now.getTime() > this.latest) this.latest = now.getTime();
    return counts;
  }

  /** The shared total as of at most `syncMs` ago, plus this process's hits not yet added to the file. */
  count(key: string, windowSeconds: readonly number[], now: Date): number[] {
    return windowSeconds.map((seconds) => {
      const id = `${key}:${seconds}:${windowStart(seconds, now)}`;
      const c = this.counters.get(id);
      if (!c) return this.read.get(id)?.count ?? 0;
      if (this.monotonic() - c.readAt > this.syncMs) {
        c.shared = this.read.get(id)?.count ?? 0;
        c.readAt = this.monotonic();
      }
      return c.shared + c.pending;
    });
  }

  /**
   * Adds this process's hits to the file and reads their totals back; forgets windows that ended
   * over a minute ago (by the hits' clock). Runs every `syncMs`; tests call it.
   */
  sync(): void {
    if (!this.db.open) return;
    if (this.dirty) {
      try {
        this.flush();
        this.dirty = false;
      } catch (error) {
        // From the timer this must never throw (it would end the process): the hits stay
        // pending and the next sync tries again. Counting in memory goes on meanwhile.
        this.lastSyncError = error;
        return;
      }
    }
    this.lastSyncError = null;
    const before = this.latest - LATE_HITS_MS;
    for (const [id, c] of this.counters) if (c.ends <= before && c.pending === 0) this.counters.delete(id);
    if (this.latest - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = this.latest;
      try {
        this.sweepStatement.run(before);
      } catch (error) {
        this.lastSyncError = error; // tried again in a minute
      }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    if (!this.db.open) return;
    try {
      this.sync();
    } finally {
      this.db.close();
    }
  }
}
