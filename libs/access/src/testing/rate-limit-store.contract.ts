import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { RateLimitStore } from '#access';

/** One window's count after a hit. */
async function one(store: RateLimitStore, key: string, windowSeconds: number, now: Date): Promise<number> {
  const [count] = await store.hit(key, [windowSeconds], now);
  return count!;
}

export interface RateLimitStoreFixture {
  store: RateLimitStore;
  cleanup(): Promise<void>;
}

export interface RateLimitStoreContractOptions {
  /** Register the suite as skipped with this reason (e.g. the server's URL is not set). */
  skip?: string;
}

/**
 * What every RateLimitStore adapter must do (rate-limit.port.ts): atomic counts per key and
 * epoch-aligned window, a fresh count in each new window, exact counts under concurrency.
 * Keys are random per test, so the suite also runs against a shared server.
 */
export function rateLimitStoreContract(
  adapterName: string,
  factory: () => Promise<RateLimitStoreFixture>,
  options: RateLimitStoreContractOptions = {},
): void {
  const test = (name: string, fn: (store: RateLimitStore, key: (suffix?: string) => string) => Promise<void>) =>
    void it(name, async () => {
      const fixture = await factory();
      const prefix = `ct_${randomBytes(5).toString('hex')}`;
      try {
        await fn(fixture.store, (suffix = 'main') => `${prefix}:${suffix}`);
      } finally {
        await fixture.store.close();
        await fixture.cleanup();
      }
    });

  describe(`RateLimitStore contract: ${adapterName}`, options.skip ? { skip: options.skip } : {}, () => {
    test('counts hits per key and window: 1, 2, 3, ...', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      assert.equal(await one(store, key(), 60, now), 1);
      assert.equal(await one(store, key(), 60, now), 2);
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:00:59.999Z')), 3);
    });

    test('keys and window sizes count separately', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      await one(store, key('a'), 60, now);
      await one(store, key('a'), 60, now);
      assert.equal(await one(store, key('b'), 60, now), 1);
      assert.equal(await one(store, key('a'), 3600, now), 1);
    });

    test('windows are aligned to the epoch: a new window starts at 1', async (store, key) => {
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:00:59.999Z')), 1);
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:00:59.999Z')), 2);
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:01:00.000Z')), 1);
      // A late hit of the previous window (another instance's clock) still counts there.
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:00:30.000Z')), 3);
      assert.equal(await one(store, key(), 60, new Date('2026-03-01T10:01:10.000Z')), 2);
      assert.equal(await one(store, key(), 3600, new Date('2026-03-01T10:59:59.000Z')), 1);
      assert.equal(await one(store, key(), 3600, new Date('2026-03-01T11:00:00.000Z')), 1);
    });

    test('concurrent hits count exactly: each caller gets its own number', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      const counts = await Promise.all(Array.from({ length: 200 }, () => one(store, key(), 60, now)));
      assert.deepEqual(
        [...counts].sort((a, b) => a - b),
        Array.from({ length: 200 }, (_, i) => i + 1),
      );
    });

    test('one call counts every window it names, in order', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      assert.deepEqual(await store.hit(key(), [60, 3600], now), [1, 1]);
      assert.deepEqual(await store.hit(key(), [60, 3600], now), [2, 2]);
      assert.deepEqual(await store.hit(key(), [60, 3600], new Date('2026-03-01T10:01:00Z')), [1, 3]);
      assert.deepEqual(await store.hit(key(), [3600], now), [4]);
    });

    test('count reads the windows containing now without a hit: 0 before any', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      assert.deepEqual(await store.count(key(), [60, 3600], now), [0, 0]);
      await store.hit(key(), [60, 3600], now);
      await store.hit(key(), [60, 3600], now);
      assert.deepEqual(await store.count(key(), [60, 3600], now), [2, 2]);
      assert.deepEqual(await store.count(key(), [60, 3600], now), [2, 2], 'counting adds nothing');
      assert.deepEqual(await store.count(key(), [60, 3600], new Date('2026-03-01T10:01:00Z')), [0, 2]);
      assert.deepEqual(await store.count(key('other'), [60], now), [0]);
    });

    test('concurrent first hits of many windows at once (the upsert race) count exactly', async (store, key) => {
      const now = new Date('2026-03-01T10:00:15Z');
      const counts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          Promise.all([one(store, key(`k${i}`), 60, now), one(store, key(`k${i}`), 60, now)]),
        ),
      );
      for (const pair of counts) assert.deepEqual([...pair].sort(), [1, 2]);
    });
  });
}
