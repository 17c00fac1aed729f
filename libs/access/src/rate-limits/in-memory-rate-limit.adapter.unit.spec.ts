import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitStoreContract } from '#access/testing';
import { InMemoryRateLimitStore } from './in-memory-rate-limit.adapter.js';

rateLimitStoreContract('in-memory', async () => ({ store: new InMemoryRateLimitStore(), cleanup: async () => {} }));

// Beyond the contract: the in-memory store's own bookkeeping of windows that ended.
describe('InMemoryRateLimitStore', () => {
  it('keeps the count of a window two back until the minute sweep: a very late hit still counts there', () => {
    const store = new InMemoryRateLimitStore();
    const hit = (at: string) => store.hit('acct:a', [60], new Date(`2026-03-01T${at}Z`))[0];
    assert.equal(hit('10:00:10'), 1); // the first hit also sweeps (nothing to sweep)
    assert.equal(hit('10:00:11'), 2);
    assert.equal(hit('10:00:12'), 3);
    assert.equal(hit('10:01:10'), 1); // sweep: 10:00 is the previous window, kept
    assert.equal(hit('10:02:05'), 1); // 10:00 is now two back; no sweep within the minute
    assert.equal(hit('10:00:40'), 4, 'counted on top of the three, not from 1');
    assert.equal(hit('10:01:20'), 2);
    // A minute after the last sweep, windows that ended are dropped.
    assert.equal(hit('10:03:15'), 1);
    assert.equal(hit('10:00:50'), 1);
  });
});
