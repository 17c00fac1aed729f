import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { type Collection, type DocumentStore, type Filter, SqliteDocumentStore } from '#documents';
import { IDEMPOTENCY_COLLECTION, IdempotencyStore } from './idempotency.store.js';

describe('IdempotencyStore (embedded document store)', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  const clock = new FakeClock('2026-03-01T00:00:00Z');
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-idem-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await documents.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('replays the first response for 24 h, then runs again', async () => {
    const store = new IdempotencyStore(documents, clock);
    let runs = 0;
    const exec = async () => ({ status: 201, body: { n: ++runs, secret: 'svc_test_SECRET' } });
    const req = { scope: 'POST /pay', key: 'k-1', fingerprint: 'f' };
    const first = await store.run(req, exec);
    const second = await store.run(req, exec);
    assert.deepEqual([first.replayed, second.replayed], [false, true]);
    assert.deepEqual(second.body, { n: 1, secret: 'svc_test_SECRET' });
    clock.advance(24 * 3600_000 - 1);
    assert.deepEqual((await store.run(req, exec)).body, { n: 1, secret: 'svc_test_SECRET' });
    clock.advance(2);
    const fresh = await store.run(req, exec);
    assert.deepEqual([fresh.replayed, (fresh.body as { n: number }).n], [false, 2]);
  });

  it('stores responses encrypted under a hashed id: the store alone reveals neither key nor body', async () => {
    const store = new IdempotencyStore(documents, clock);
    await store.run({ scope: 'POST /pay', key: 'visible-key', fingerprint: 'f' }, async () => ({
      status: 201,
      body: { api_key: 'svc_test_TOPSECRET' },
    }));
    const { items } = await documents.collection(IDEMPOTENCY_COLLECTION).find({}, { limit: 1000 });
    const dump = JSON.stringify(items);
    assert.doesNotMatch(dump, /TOPSECRET|visible-key/);
    // Another scope with the same key value is another record.
    const other = await store.run({ scope: 'POST /signup', key: 'visible-key', fingerprint: 'g' }, async () => ({
      status: 201,
      body: 'other',
    }));
    assert.equal(other.replayed, false);
  });

  it('refuses the same key with other parameters, and bad keys', async () => {
    const store = new IdempotencyStore(documents, clock);
    await store.run({ scope: 's', key: 'k-2', fingerprint: 'a' }, async () => ({ status: 200, body: 1 }));
    await assert.rejects(
      store.run({ scope: 's', key: 'k-2', fingerprint: 'b' }, async () => ({ status: 200, body: 2 })),
      (e: any) => e.code === 'IDEMPOTENCY_KEY_REUSED' && e.kind === 'conflict',
    );
    await assert.rejects(
      store.run({ scope: 's', key: 'has space', fingerprint: 'a' }, async () => ({ status: 200, body: 2 })),
      (e: any) => e.code === 'INVALID_IDEMPOTENCY_KEY',
    );
  });

  it('concurrent requests with one key execute once; the others get the first response', async () => {
    const a = new IdempotencyStore(documents, clock);
    const b = new IdempotencyStore(documents, clock); // another process
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const exec = async () => {
      runs++;
      await gate;
      return { status: 201, body: { run: runs } };
    };
    const req = { scope: 's', key: 'race', fingerprint: 'f' };
    const pending = Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).run(req, exec));
    setImmediate(release);
    const results = await Promise.all(pending);
    assert.equal(runs, 1);
    assert.equal(results.filter((r) => !r.replayed).length, 1);
    for (const r of results) assert.deepEqual(r.body, { run: 1 });
  });

  it('a failed execution is not replayed: the next request runs again', async () => {
    const store = new IdempotencyStore(documents, clock);
    const req = { scope: 's', key: 'fails-once', fingerprint: 'f' };
    await assert.rejects(
      store.run(req, async () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    const ok = await store.run(req, async () => ({ status: 201, body: 'ok' }));
    assert.deepEqual([ok.replayed, ok.body], [false, 'ok']);
  });

  it("a failed execution gives back only its own claim: another request's takeover just before the release stays", async () => {
    // The store as this process sees it, where another process takes the key over right before
    // the release's delete (after its lease ran out): the check must be in the delete itself.
    let takeOver: (() => Promise<void>) | undefined;
    const beforeDelete = async () => {
      const run = takeOver;
      takeOver = undefined;
      await run?.();
    };
    const racing = Object.assign(Object.create(documents) as DocumentStore, {
      collection: (name: string) => {
        const handle = documents.collection(name);
        return Object.assign(Object.create(handle) as Collection, {
          delete: async (id: string) => (await beforeDelete(), handle.delete(id)),
          deleteMany: async (filter: Filter) => (await beforeDelete(), handle.deleteMany(filter)),
        });
      },
    });
    const store = new IdempotencyStore(racing, clock, { leaseMs: 30_000 });
    const records = documents.collection(IDEMPOTENCY_COLLECTION);
    const req = { scope: 's', key: 'released', fingerprint: 'f' };
    await assert.rejects(
      store.run(req, async () => {
        clock.advance(30_001);
        takeOver = async () => {
          const [mine] = (await records.find({ state: 'pending', fingerprint: 'f' })).items;
          await documents.applyBatch([
            {
              kind: 'cas',
              collection: IDEMPOTENCY_COLLECTION,
              doc: { ...mine!, token: 'theirs', lease_until: new Date(clock.now().getTime() + 30_000).toISOString() },
              expect: { token: mine!.token as string },
            },
          ]);
        };
        throw new Error('boom');
      }),
      /boom/,
    );
    assert.equal(takeOver, undefined, 'the other request took over');
    assert.equal(await records.count({ token: 'theirs' }), 1, "the other request's claim stands");
  });

  it('an abandoned claim (crashed process) is taken over after its lease', async () => {
    const crashed = new IdempotencyStore(documents, clock, { leaseMs: 30_000, waitMs: 50 });
    const req = { scope: 's', key: 'abandoned', fingerprint: 'f' };
    // Simulate a crash: the execution never finishes.
    void crashed.run(req, () => new Promise(() => undefined));
    const other = new IdempotencyStore(documents, clock, { leaseMs: 30_000, waitMs: 50 });
    await assert.rejects(
      other.run(req, async () => ({ status: 201, body: 'x' })),
      (e: any) => e.code === 'IDEMPOTENCY_KEY_IN_PROGRESS',
    );
    clock.advance(30_001);
    const took = await other.run(req, async () => ({ status: 201, body: 'taken over' }));
    assert.deepEqual([took.replayed, took.body], [false, 'taken over']);
  });
});
