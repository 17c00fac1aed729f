import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('holds at most maxEntries: the oldest written goes first; rewriting a key makes it newest', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 10);
    cache.set('c', 3);
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined, 'b was the oldest');
    assert.deepEqual([cache.get('a'), cache.get('c')], [10, 3]);
  });

  it('expires entries after the TTL, per cache or per entry, on the injected clock', () => {
    let t = 0;
    const cache = new BoundedCache<string, string>({ maxEntries: 10, ttlMs: 500, now: () => t });
    cache.set('k', 'v');
    cache.set('long', 'v', 60_000);
    t = 499;
    assert.equal(cache.get('k'), 'v');
    t = 500;
    assert.equal(cache.get('k'), undefined);
    assert.equal(cache.size, 1, 'an expired entry met is dropped');
    assert.equal(cache.get('long'), 'v');
  });

  it('deletes by value', () => {
    const cache = new BoundedCache<string, { id: string }>({ maxEntries: 10 });
    cache.set('raw1', { id: 'key_1' });
    cache.set('raw2', { id: 'key_2' });
    cache.deleteWhere((v) => v.id === 'key_1');
    assert.deepEqual([cache.has('raw1'), cache.has('raw2')], [false, true]);
  });

  it('keeps evicting the oldest written through long runs of writes, rewrites, deletes and clears', () => {
    // A reference model (an array in write order) beside the cache, over a seeded mix of
    // operations: eviction walks one iterator across the map's whole life (see `oldest`).
    const cache = new BoundedCache<number, number>({ maxEntries: 50 });
    let model: number[] = [];
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % n;
    for (let step = 0; step < 20_000; step++) {
      const key = random(120);
      const op = random(100);
      if (op < 80) {
        cache.set(key, step);
        model = model.filter((k) => k !== key);
        if (model.length >= 50) model.shift();
        model.push(key);
      } else if (op < 99) {
        cache.delete(key);
        model = model.filter((k) => k !== key);
      } else {
        cache.clear();
        model = [];
      }
      if (step % 97 === 0) {
        assert.equal(cache.size, model.length, `size at step ${step}`);
        for (let k = 0; k < 120; k++) assert.equal(cache.has(k), model.includes(k), `key ${k} at step ${step}`);
      }
    }
  });
});
