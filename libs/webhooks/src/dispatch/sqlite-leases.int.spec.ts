import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { deliveryLeasesContract } from '#webhooks/testing';
import { SqliteDeliveryLeases } from './sqlite-leases.js';

// Holders opened on one file stand for worker processes on one data directory.
deliveryLeasesContract('embedded SQLite file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'webhook-leases-'));
  return {
    open: (now) => new SqliteDeliveryLeases({ path: join(dir, 'webhook-leases.sqlite') }, now),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('SqliteDeliveryLeases', () => {
  it('opens a lease file written before the sending mark existed, and keeps its leases', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'webhook-leases-'));
    const path = join(dir, 'webhook-leases.sqlite');
    try {
      const old = new Database(path);
      old.exec(
        'CREATE TABLE webhook_leases (id TEXT PRIMARY KEY, owner TEXT NOT NULL, expires_at INTEGER NOT NULL) WITHOUT ROWID',
      );
      old.prepare('INSERT INTO webhook_leases VALUES (?, ?, ?)').run('del_1:a1', 'someone', 2_000_000_000_000);
      old.close();
      const leases = new SqliteDeliveryLeases({ path }, () => 1_700_000_000_000);
      try {
        assert.equal(await leases.claim('del_1:a1', 60_000), null, 'the old lease still holds');
        assert.ok(await leases.claim('del_2:a1', 60_000, new Date(1_700_000_000_000)));
        assert.deepEqual(await leases.interrupted(10), []);
      } finally {
        await leases.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
