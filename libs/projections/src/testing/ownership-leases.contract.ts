import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Collection, DocumentStore } from '#documents';
import { DocumentOwnershipLeases } from '../ownership/document-ownership.adapter.js';

export interface OwnershipLeasesFixture {
  /** A new connection to the same store each call (two processes sharing it). */
  connect(): DocumentStore;
  cleanup(): Promise<void>;
}

/**
 * What the ownership lease must do on every document store adapter (ADR 0067), on a fake wall
 * clock: take a free job, refuse a held one, renew, expire, hand over with the next term, release,
 * and never let two contenders both hold one.
 */
export function ownershipLeasesContract(
  adapterName: string,
  factory: () => Promise<OwnershipLeasesFixture>,
  options: { skip?: string } = {},
): void {
  describe(`OwnershipLeases contract: ${adapterName}`, { skip: options.skip ?? false }, () => {
    let fixture: OwnershipLeasesFixture;
    let stores: DocumentStore[];
    let now: number;
    const clock = () => now;

    beforeEach(async () => {
      fixture = await factory();
      stores = [];
      now = 1_700_000_000_000;
    });
    afterEach(async () => {
      for (const s of stores) await s.close();
      await fixture.cleanup();
    });

    function leases(): DocumentOwnershipLeases {
      const store = fixture.connect();
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

    it('terms only rise: a take that read a released lease fails when it was taken and released again before the write', async () => {
      const a = leases();
      const store = fixture.connect();
      stores.push(store);
      // B's store runs `between` right after B's read of the lease (another process, meanwhile).
      let between: (() => Promise<void>) | undefined;
      const racing = Object.assign(Object.create(store) as DocumentStore, {
        collection: (name: string) => {
          const handle = store.collection(name);
          return Object.assign(Object.create(handle) as Collection, {
            get: async (id: string) => {
              const doc = await handle.get(id);
              const run = between;
              between = undefined;
              await run?.();
              return doc;
            },
          });
        },
      });
      const b = new DocumentOwnershipLeases(racing, clock);
      await a.release((await a.acquire('projection:x', 'A', 6000))!);
      between = async () => a.release((await a.acquire('projection:x', 'A', 6000))!);
      assert.equal(await b.acquire('projection:x', 'B', 6000), null, 'B read term 1, A has had term 2 since');
      const taken = await b.acquire('projection:x', 'B', 6000);
      assert.equal(taken?.term, 3);
    });

    it('two contenders never both hold a job: of concurrent takes on a free or expired lease, one wins', async () => {
      const contenders = [leases(), leases(), leases(), leases()];
      let won = 0;
      for (let round = 0; round < 30; round++) {
        const job = `projection:p${round % 3}`;
        const results = await Promise.all(contenders.map((c, i) => c.acquire(job, `C${i}`, 6000)));
        const winners = results.filter((r) => r !== null);
        assert.ok(winners.length <= 1, `round ${round}: ${winners.length} winners`);
        won += winners.length;
        const recorded = (await contenders[0]!.list()).find((l) => l.job === job);
        if (winners.length === 1) assert.deepEqual(recorded, winners[0]);
        if (round % 2 === 1) now += 6000; // let them expire every other round
      }
      assert.ok(won >= 3, 'free and expired leases were taken');
    });
  });
}
