import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { rateLimitStoreContract } from '#access/testing';
import Database from 'better-sqlite3';
import { SqliteRateLimitStore } from './sqlite-rate-limit.adapter.js';

rateLimitStoreContract('sqlite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rate-limits-'));
  const store = new SqliteRateLimitStore({ path: join(dir, 'rate-limits.sqlite') });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteRateLimitStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rate-limits-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a sync that cannot write (a full disk, a lock held) throws nothing and loses no hit: the next one adds them', async () => {
    const path = join(dir, 'rate-limits.sqlite');
    const store = new SqliteRateLimitStore({ path, syncMs: 3_600_000, busyTimeoutMs: 0 });
    const other = new Database(path);
    try {
      const now = new Date('2026-03-01T10:00:10Z');
      store.hit('acct:y', [60], now);
      store.hit('acct:y', [60], now);
      // Another connection holds the write lock: this sync's transaction cannot begin.
      other.exec('BEGIN IMMEDIATE');
      assert.doesNotThrow(() => store.sync());
      assert.match(String(store.lastSyncError), /locked|busy/i);
      assert.deepEqual(store.count('acct:y', [60], now), [2], 'still counted here');
      other.exec('ROLLBACK');
      store.sync();
      assert.equal(store.lastSyncError, null);
      const inFile = other.prepare('SELECT count FROM rate_limit_counters').all() as Array<{ count: number }>;
      assert.deepEqual(inFile, [{ count: 2 }], 'both hits reached the file once');
    } finally {
      other.close();
      await store.close();
    }
  });

  it('two stores on one file (two api processes on one data directory) share the counts, within one sync', async () => {
    const path = join(dir, 'rate-limits.sqlite');
    // Syncs happen where written (the timer's interval is an hour of real time); `mono` is the
    // processes' monotonic clock, which says when a total read is older than the interval.
    let mono = 0;
    const options = { path, syncMs: 3_600_000, monotonic: () => mono };
    const a = new SqliteRateLimitStore(options);
    const b = new SqliteRateLimitStore(options);
    try {
      const now = new Date('2026-03-01T10:00:10Z');
      assert.deepEqual(a.hit('acct:x', [60, 3600], now), [1, 1]);
      assert.deepEqual(a.hit('acct:x', [60, 3600], now), [2, 2]);
      assert.deepEqual(b.hit('acct:x', [60, 3600], now), [1, 1], "a's hits are not in the file yet");
      a.sync();
      b.sync();
      // Each now knows the other's hits: 3 in the file; b's next is the 4th.
      assert.deepEqual(b.hit('acct:x', [60, 3600], now), [4, 4]);
      assert.deepEqual(
        a.hit('acct:x', [60, 3600], now),
        [3, 3],
        "a read the total (2) before b's hit reached the file",
      );
      a.sync();
      b.sync();
      // In the file: 5 (a's 3, b's 2).
      assert.deepEqual(b.hit('acct:x', [60, 3600], now), [6, 6]);
      // a has not hit for longer than the interval: it reads the file first (5, b's 6th is pending).
      mono += 3_600_001;
      assert.deepEqual(a.hit('acct:x', [60, 3600], now), [6, 6]);
      a.sync();
      b.sync();
      // 7 in the file: what both processes admitted, none lost.
      const later = new Date('2026-03-01T10:01:05Z');
      assert.deepEqual(
        a.hit('acct:x', [60, 3600], later),
        [1, 7],
        "a new minute; the hour as a read it at its sync (b's came after)",
      );
      a.sync();
      // A window first seen here is read from the file on its first hit.
      const c = new SqliteRateLimitStore(options);
      assert.deepEqual(c.hit('acct:x', [3600], later), [9]);
      await c.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a store closed (a graceful stop) leaves its last hits in the file', async () => {
    const path = join(dir, 'rate-limits.sqlite');
    const a = new SqliteRateLimitStore({ path, syncMs: 3_600_000 });
    const now = new Date('2026-03-01T10:00:10Z');
    for (let i = 0; i < 5; i++) a.hit('k', [60], now);
    await a.close();
    const b = new SqliteRateLimitStore({ path, syncMs: 3_600_000 });
    assert.deepEqual(b.hit('k', [60], now), [6]);
    await b.close();
  });

  it('keeps a window a minute after its end for late hits, then drops it', async () => {
    const store = new SqliteRateLimitStore({ path: join(dir, 'rate-limits.sqlite'), syncMs: 3_600_000 });
    try {
      assert.deepEqual(store.hit('k', [60], new Date('2026-03-01T10:00:10Z')), [1]);
      assert.deepEqual(store.hit('k', [60], new Date('2026-03-01T10:00:20Z')), [2]);
      store.sync(); // the first sync sweeps: nothing ended a minute ago
      assert.deepEqual(store.hit('j', [60], new Date('2026-03-01T10:01:30Z')), [1]);
      store.sync();
      assert.deepEqual(store.hit('k', [60], new Date('2026-03-01T10:00:50Z')), [3], 'a late hit counts on');
      assert.deepEqual(store.hit('j', [60], new Date('2026-03-01T10:02:35Z')), [1]);
      store.sync(); // a minute after the last sweep (10:01:30): 10:00 ended over a minute ago
      assert.deepEqual(store.hit('k', [60], new Date('2026-03-01T10:00:55Z')), [1], 'the ended window was dropped');
    } finally {
      await store.close();
    }
  });
});
