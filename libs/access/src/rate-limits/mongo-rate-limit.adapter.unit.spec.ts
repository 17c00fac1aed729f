import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from 'mongodb';
import { MongoRateLimitStore } from './mongo-rate-limit.adapter.js';

/** The driver calls the adapter makes, without a server (the contract runs with MONGODB_URL). */
function fakeDb(answers: Array<Error | { count: number }>) {
  const calls: { indexes: unknown[]; updates: Array<{ filter: unknown; update: unknown; options: unknown }> } = {
    indexes: [],
    updates: [],
  };
  const collection = {
    createIndex: async (spec: unknown, options: unknown) => {
      calls.indexes.push([spec, options]);
      return 'expires_at_1';
    },
    findOneAndUpdate: async (filter: unknown, update: unknown, options: unknown) => {
      calls.updates.push({ filter, update, options });
      const next = answers.shift();
      if (next instanceof Error) throw next;
      return next ?? null;
    },
  };
  return { db: { collection: () => collection } as unknown as Db, calls };
}

describe('MongoRateLimitStore (driver calls)', () => {
  it('increments the window document atomically with an upsert, expiring at the window end; TTL index once', async () => {
    const { db, calls } = fakeDb([{ count: 1 }, { count: 2 }]);
    const store = new MongoRateLimitStore(async () => db);
    const now = new Date('2026-03-01T10:00:15Z');
    assert.deepEqual(await store.hit('acct:a', [60], now), [1]);
    assert.deepEqual(await store.hit('acct:a', [60], now), [2]);
    assert.deepEqual(calls.indexes, [[{ expires_at: 1 }, { expireAfterSeconds: 0 }]]);
    const start = Date.parse('2026-03-01T10:00:00Z');
    assert.deepEqual(calls.updates[0], {
      filter: { _id: `acct:a:60:${start}` },
      update: { $inc: { count: 1 }, $setOnInsert: { expires_at: new Date(start + 60_000) } },
      options: { upsert: true, returnDocument: 'after' },
    });
  });

  it('retries the upsert that lost the insert race (E11000) and counts once', async () => {
    const duplicate = Object.assign(new Error('E11000 duplicate key error'), { code: 11000 });
    const { db, calls } = fakeDb([duplicate, { count: 2 }]);
    const store = new MongoRateLimitStore(async () => db);
    assert.deepEqual(await store.hit('acct:a', [60], new Date('2026-03-01T10:00:15Z')), [2]);
    assert.equal(calls.updates.length, 2);
  });

  it('passes other errors on, and tries the index again after a failure to reach the server', async () => {
    let reachable = false;
    const { db } = fakeDb([{ count: 1 }]);
    const store = new MongoRateLimitStore(async () => {
      if (!reachable) throw new Error('connect ECONNREFUSED');
      return db;
    });
    await assert.rejects(store.hit('acct:a', [60], new Date()), /ECONNREFUSED/);
    reachable = true;
    assert.deepEqual(await store.hit('acct:a', [60], new Date()), [1]);
  });
});
