import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DeliveryLeases } from '../dispatch/leases.js';

export interface DeliveryLeasesFixture {
  /** A new holder on the same store each call (one per dispatcher process), on the given wall clock. */
  open(now: () => number): DeliveryLeases;
  cleanup(): Promise<void>;
}

/**
 * What every attempt lease store must do (ADR 0067, ADR 0070), on a fake wall clock: one holder
 * per attempt until expiry, release or completion, exactly one winner among contenders, and a
 * durable "sending" mark that the next holder of an expired lease learns of, that outlives
 * releases, that a holder whose lease was taken cannot set, that `interrupted` lists once
 * expired, and that completing the recorded attempt removes.
 */
export function deliveryLeasesContract(
  adapterName: string,
  factory: () => Promise<DeliveryLeasesFixture>,
  options: { skip?: string } = {},
): void {
  describe(`DeliveryLeases contract: ${adapterName}`, { skip: options.skip ?? false }, () => {
    let fixture: DeliveryLeasesFixture;
    let opened: DeliveryLeases[];
    let now: number;
    const holder = () => {
      const leases = fixture.open(() => now);
      opened.push(leases);
      return leases;
    };

    beforeEach(async () => {
      fixture = await factory();
      opened = [];
      now = 1_700_000_000_000;
    });
    afterEach(async () => {
      for (const l of opened) await l.close?.();
      await fixture.cleanup();
    });

    it('an attempt claimed by one holder is refused to the other until it expires or is given back', async () => {
      const [a, b] = [holder(), holder()];
      const first = await a.claim('del_1:a1', 60_000);
      assert.deepEqual(first, { key: 'del_1:a1', expiresAt: now + 60_000, interruptedSendAt: null });
      assert.equal(await a.claim('del_1:a1', 60_000), null, 'not twice, even by its holder');
      assert.equal(await b.claim('del_1:a1', 60_000), null);
      assert.ok(await b.claim('del_1:a2', 60_000), 'another attempt is another lease');
      now += 59_999;
      assert.equal(await b.claim('del_1:a1', 60_000), null);
      now += 1;
      const taken = await b.claim('del_1:a1', 60_000);
      assert.ok(taken, 'expired: taken');
      await a.release(first!); // no longer a's: changes nothing
      assert.equal(await a.claim('del_1:a1', 60_000), null);
      await b.release(taken);
      assert.ok(await a.claim('del_1:a1', 60_000), 'given back: free at once');
    });

    it('of many holders claiming the same attempts at once, exactly one gets each', async () => {
      const contenders = [holder(), holder(), holder()];
      const keys = Array.from({ length: 100 }, (_, i) => `del_${i}:a1`);
      const results = await Promise.all(
        keys.flatMap((key) => contenders.map(async (c, i) => ((await c.claim(key, 60_000)) ? `${key}@${i}` : null))),
      );
      const won = results.filter((r): r is string => r !== null);
      assert.equal(won.length, keys.length);
      assert.equal(new Set(won.map((w) => w.split('@')[0])).size, keys.length);
    });

    it('a holder that marked the attempt as sending and vanished: the next holder learns when', async () => {
      const [killed, next, third] = [holder(), holder(), holder()];
      const lease = await killed.claim('del_1:a3', 60_000);
      assert.ok(lease);
      const sendingAt = new Date('2026-01-01T00:00:04.000Z');
      assert.ok(await killed.markSending(lease, sendingAt, 60_000));
      assert.equal(await next.claim('del_1:a3', 60_000), null, 'held until it expires');
      now += 60_000;
      const taken = await next.claim('del_1:a3', 60_000);
      assert.equal(taken?.interruptedSendAt, sendingAt.getTime());
      // Given back without recording (its read model was behind): the mark stays for whoever comes next.
      await next.release(taken!);
      assert.equal((await third.claim('del_1:a3', 60_000))?.interruptedSendAt, sendingAt.getTime());
    });

    it('a holder whose lease expired and was taken cannot mark it: only the new holder may send', async () => {
      const [slow, next] = [holder(), holder()];
      const stale = await slow.claim('del_1:a1', 60_000);
      now += 60_000;
      const fresh = await next.claim('del_1:a1', 60_000);
      assert.equal(fresh?.interruptedSendAt, null, 'nothing was sent under it');
      assert.equal(await slow.markSending(stale!, new Date(now), 60_000), null);
      assert.ok(await next.markSending(fresh!, new Date(now), 60_000));
      now += 60_000;
      assert.equal((await slow.claim('del_1:a1', 60_000))?.interruptedSendAt, now - 60_000);
    });

    it('the mark renews the lease for its TTL from the mark; a lease expired, even untaken, cannot be marked', async () => {
      const [a, b] = [holder(), holder()];
      const lease = await a.claim('del_1:a1', 60_000);
      now += 50_000;
      const marked = await a.markSending(lease!, new Date(now), 60_000);
      assert.equal(marked?.expiresAt, now + 60_000);
      now += 20_000; // 70 s after the claim, 20 s after the mark
      assert.equal(await b.claim('del_1:a1', 60_000), null, 'renewed by the mark');
      const other = await a.claim('del_2:a1', 60_000);
      now += 60_000;
      assert.equal(await a.markSending(other!, new Date(now), 60_000), null, 'expired, though nobody took it');
      assert.equal((await b.claim('del_2:a1', 60_000))?.interruptedSendAt, null, 'and unmarked');
    });

    it('a lease claimed again by its own holder after it expired is a new lease: the old one can neither mark nor release it', async () => {
      const a = holder();
      const old = await a.claim('del_1:a1', 60_000);
      now += 60_000;
      const renewed = await a.claim('del_1:a1', 60_000);
      assert.ok(renewed);
      assert.equal(await a.markSending(old!, new Date(now), 60_000), null);
      await a.release(old!);
      assert.equal(await holder().claim('del_1:a1', 60_000), null, 'still held');
    });

    it('lists expired leases still marked as sending, oldest mark first; a completed attempt is not listed', async () => {
      const [a, b] = [holder(), holder()];
      const send = async (key: string, at: number) => {
        const lease = await a.claim(key, 60_000);
        assert.ok(await a.markSending(lease!, new Date(at), 60_000));
        return lease!;
      };
      await send('del_2:a1', 2000);
      await send('del_1:a1', 1000);
      const recorded = await send('del_3:a1', 3000);
      await a.complete(recorded);
      const unmarked = await a.claim('del_4:a1', 60_000);
      assert.deepEqual(await b.interrupted(10), [], 'not while their holder may still record them');
      now += 60_000;
      assert.deepEqual(await b.interrupted(10), ['del_1:a1', 'del_2:a1']);
      assert.deepEqual(await b.interrupted(1), ['del_1:a1']);
      assert.ok(unmarked);
      // Recorded by the next holder: no longer listed, and its key free without a mark.
      const taken = await b.claim('del_1:a1', 60_000);
      assert.equal(taken?.interruptedSendAt, 1000);
      await b.complete(taken!);
      now += 60_000;
      assert.deepEqual(await b.interrupted(10), ['del_2:a1']);
      assert.equal((await b.claim('del_1:a1', 60_000))?.interruptedSendAt, null);
    });

    it("a completed lease is free at once; completing someone else's lease changes nothing", async () => {
      const [a, b] = [holder(), holder()];
      const old = await a.claim('del_1:a1', 60_000);
      now += 60_000;
      const current = await b.claim('del_1:a1', 60_000);
      assert.ok(await b.markSending(current!, new Date(now), 60_000));
      await a.complete(old!);
      now += 60_000;
      assert.deepEqual(await a.interrupted(10), ['del_1:a1'], "b's mark survives a's late complete");
      const next = await a.claim('del_1:a1', 60_000);
      await a.complete(next!);
      assert.ok(await b.claim('del_1:a1', 60_000), 'completed: free at once');
    });

    it('sweeps expired leases without a mark, and marks left unrecorded for over a day', async () => {
      const a = holder();
      const mark = async (key: string) => {
        const lease = await a.claim(key, 1000);
        assert.ok(await a.markSending(lease!, new Date(now), 1000));
        return now;
      };
      await mark('old:a1');
      await a.claim('plain:a1', 1000);
      now += 24 * 60 * 60_000 + 1001;
      const recentMark = await mark('recent:a1');
      now += 1000;
      await a.sweep();
      assert.deepEqual(await a.interrupted(10), ['recent:a1'], 'an unrecorded mark is kept for a day');
      const b = holder();
      assert.equal((await b.claim('old:a1', 1000))?.interruptedSendAt, null, 'swept: gone with its mark');
      assert.equal((await b.claim('recent:a1', 1000))?.interruptedSendAt, recentMark);
      assert.ok(await b.claim('plain:a1', 1000));
    });
  });
}
