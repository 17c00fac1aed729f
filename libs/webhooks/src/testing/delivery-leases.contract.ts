import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { DeliveryLeases } from '../dispatch/leases.js';

export interface DeliveryLeasesFixture {
  /** A new holder on the same store each call (one per dispatcher process), on the given wall clock. */
  open(now: () => number): DeliveryLeases;
  cleanup(): Promise<void>;
}

/**
 * What every attempt lease store must do (ADR 0067, ADR 0070, ADR 0086), on a fake wall clock:
 * one holder per attempt until expiry, release or completion, exactly one winner among
 * contenders, and a durable "sending" mark, set by a sender's claim in the same write, that the
 * next holder of an expired lease learns of, that a later holder's claim keeps, that its own
 * holder's release removes but a later holder's release keeps, that `interrupted` lists once
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

    it('a holder that claimed the attempt to send and vanished: the next holder learns when', async () => {
      const [killed, next, third] = [holder(), holder(), holder()];
      const sendingAt = new Date('2026-01-01T00:00:04.000Z');
      const lease = await killed.claim('del_1:a3', 60_000, sendingAt);
      assert.deepEqual(lease, { key: 'del_1:a3', expiresAt: now + 60_000, interruptedSendAt: null });
      assert.equal(await next.claim('del_1:a3', 60_000), null, 'held until it expires');
      now += 60_000;
      const taken = await next.claim('del_1:a3', 60_000, new Date(now));
      assert.equal(taken?.interruptedSendAt, sendingAt.getTime(), 'a claim to send keeps the earlier mark');
      // Given back without recording (its read model was behind): the mark stays for whoever comes next.
      await next.release(taken!);
      assert.equal((await third.claim('del_1:a3', 60_000))?.interruptedSendAt, sendingAt.getTime());
    });

    it('a holder that claimed to send and sent nothing gives its own mark back with the lease', async () => {
      const [a, b] = [holder(), holder()];
      const lease = await a.claim('del_1:a1', 60_000, new Date(now));
      await a.release(lease!);
      assert.deepEqual(await b.interrupted(10), []);
      assert.equal((await b.claim('del_1:a1', 60_000))?.interruptedSendAt, null, 'free at once, unmarked');
    });

    it('a holder whose lease expired and was taken can neither release nor complete it: the new holder keeps it and its mark', async () => {
      const [slow, next] = [holder(), holder()];
      const stale = await slow.claim('del_1:a1', 60_000, new Date(now - 1));
      now += 60_000;
      const fresh = await next.claim('del_1:a1', 60_000);
      assert.equal(fresh?.interruptedSendAt, now - 60_001, 'the slow holder may have sent it');
      await slow.release(stale!);
      await slow.complete(stale!);
      assert.equal(await holder().claim('del_1:a1', 60_000), null, 'still held');
      now += 60_000;
      assert.equal((await holder().claim('del_1:a1', 60_000))?.interruptedSendAt, now - 120_001);
    });

    it('a lease claimed again by its own holder after it expired is a new lease: the old one cannot release it', async () => {
      const a = holder();
      const old = await a.claim('del_1:a1', 60_000);
      now += 60_000;
      const renewed = await a.claim('del_1:a1', 60_000);
      assert.ok(renewed);
      await a.release(old!);
      assert.equal(await holder().claim('del_1:a1', 60_000), null, 'still held');
    });

    it('of many holders claiming to send the same attempts at once, exactly one gets each, and each winner learns of an earlier mark', async () => {
      const killed = holder();
      const keys = Array.from({ length: 60 }, (_, i) => `del_${i}:a1`);
      // Every third attempt was claimed to send by a holder that vanished.
      for (const key of keys.filter((_, i) => i % 3 === 0)) assert.ok(await killed.claim(key, 1000, new Date(7)));
      now += 1000;
      const contenders = [holder(), holder(), holder()];
      const results = await Promise.all(
        keys.flatMap((key) =>
          contenders.map(async (c, i) => {
            const lease = await c.claim(key, 60_000, new Date(now + i));
            return lease ? { key, holder: i, earlier: lease.interruptedSendAt } : null;
          }),
        ),
      );
      const won = results.filter((r) => r !== null);
      assert.deepEqual(won.map((w) => w.key).sort(), [...keys].sort(), 'one winner per attempt');
      for (const w of won) assert.equal(w.earlier, keys.indexOf(w.key) % 3 === 0 ? 7 : null, w.key);
      now += 60_000;
      // Each key now carries its winner's mark, or the vanished holder's where there was one.
      const marks = new Map(won.map((w) => [w.key, w.earlier ?? now - 60_000 + w.holder]));
      const next = holder();
      for (const key of keys) assert.equal((await next.claim(key, 60_000))?.interruptedSendAt, marks.get(key), key);
    });

    it('lists expired leases still marked as sending, oldest mark first; a completed attempt is not listed', async () => {
      const [a, b] = [holder(), holder()];
      const send = async (key: string, at: number) => {
        const lease = await a.claim(key, 60_000, new Date(at));
        assert.ok(lease);
        return lease;
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
      assert.ok(await b.claim('del_1:a1', 60_000, new Date(now)));
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
        assert.ok(await a.claim(key, 1000, new Date(now)));
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
