import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { DocumentOwnershipLeases } from './document-ownership.adapter.js';

/**
 * The ownership lease on the embedded document store, with a fake wall clock. Two stores opened
 * on one file stand for two processes sharing a data directory.
 */
describe('DocumentOwnershipLeases', () => {
  let dir: string;
  let stores: SqliteDocumentStore[];
  let now: number;
  const clock = () => now;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ownership-'));
    stores = [];
    now = 1_700_000_000_000;
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  function leases(): DocumentOwnershipLeases {
    const store = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
    stores.push(store);
    return new DocumentOwnershipLeases(store, clock);
  }

  it('takes a free job, refuses it to another owner while it runs, and renews it', async () => {
    const [a, b] = [leases(), leases()];
    const held = await a.acquire('projection:x', 'A', 6000);
    assert.deepEqual(held, { job: 'projection:x', owner: 'A', expiresAt: now + 6000, term: 1, acquiredAt: now });
    now += 5999;
    assert.equal(await b.acquire('projection:x', 'B', 6000), null);
    const renewed = await a.renew(held!, 6000);
    assert.equal(renewed?.expiresAt, now + 6000);
    assert.equal(renewed?.term, 1, 'a renewal is the same term');
    now += 5999;
    assert.equal(await b.acquire('projection:x', 'B', 6000), null, 'the renewal moved the expiry');
  });

  it('lets another owner take an expired lease, with the next term; the old owner can no longer renew or release it', async () => {
    const [a, b] = [leases(), leases()];
    const old = (await a.acquire('webhooks:platform', 'A', 6000))!;
    now += 6000;
    const taken = await b.acquire('webhooks:platform', 'B', 6000);
    assert.equal(taken?.owner, 'B');
    assert.equal(taken?.term, 2);
    assert.equal(await a.renew(old, 6000), null, 'a lost lease is not renewed');
    await a.release(old);
    const [recorded] = await b.list();
    assert.deepEqual(recorded, taken, 'the old owner changed nothing');
  });

  it('a released lease is free at once', async () => {
    const [a, b] = [leases(), leases()];
    const held = (await a.acquire('projection:x', 'A', 6000))!;
    assert.equal(await b.acquire('projection:x', 'B', 6000), null);
    await a.release(held);
    const taken = await b.acquire('projection:x', 'B', 6000);
    assert.equal(taken?.owner, 'B');
    assert.equal(taken?.term, 2);
  });

  it('an owner asking again for a job it holds keeps it (same term)', async () => {
    const a = leases();
    await a.acquire('projection:x', 'A', 6000);
    now += 1000;
    const again = await a.acquire('projection:x', 'A', 6000);
    assert.equal(again?.term, 1);
    assert.equal(again?.expiresAt, now + 6000);
  });

  it('two contenders never both hold a job: of concurrent takes on a free or expired lease, one wins', async () => {
    const contenders = [leases(), leases(), leases(), leases()];
    for (let round = 0; round < 50; round++) {
      const job = `projection:p${round % 3}`;
      const results = await Promise.all(contenders.map((c, i) => c.acquire(job, `C${i}`, 6000)));
      const winners = results.filter((r) => r !== null);
      // Round 0..2 find the job free; later rounds find it held (and not expired) or expired.
      assert.ok(winners.length <= 1, `round ${round}: ${winners.length} winners`);
      const [recorded] = (await contenders[0]!.list()).filter((l) => l.job === job);
      if (winners.length === 1) assert.deepEqual(recorded, winners[0]);
      if (round % 2 === 1) now += 6000; // let it expire every other round
    }
  });
});
