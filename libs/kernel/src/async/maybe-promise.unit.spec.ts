import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { whenReady } from './maybe-promise.js';

describe('whenReady (value or promise)', () => {
  it('applies the function synchronously to a value at hand: no promise', () => {
    const out = whenReady(2, (v) => v * 3);
    assert.equal(out, 6);
  });

  it('applies it when a promise resolves, and passes a rejection on', async () => {
    const later = whenReady(Promise.resolve(2), (v) => v * 3);
    assert.ok(later instanceof Promise);
    assert.equal(await later, 6);
    await assert.rejects(Promise.resolve(whenReady(Promise.reject(new Error('no')), (v: number) => v)), /no/);
  });

  it('a function that answers a promise gives a promise either way', async () => {
    assert.equal(await whenReady(1, (v) => Promise.resolve(v + 1)), 2);
  });
});
