import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import type { Doc, DocumentStore } from '#documents';
import { API_KEY_USAGE_COLLECTION, ApiKeyUsageTracker, USAGE_TRACKED_KEYS_MAX } from './api-key-usage.js';

describe('ApiKeyUsageTracker (last_used_at without an event per request)', () => {
  it('writes at most once a minute per key, touches of the same moment in one batch', async () => {
    const writes: Array<[string, Doc]> = [];
    const batches: number[] = [];
    const documents = {
      applyBatch: async (ops: Array<{ kind: string; collection: string; doc: Doc }>) => {
        batches.push(ops.length);
        for (const op of ops) writes.push([op.collection, op.doc]);
      },
      collection: () => ({ getMany: async () => [] }),
    } as unknown as DocumentStore;
    const clock = new FakeClock('2026-03-01T10:00:00.000Z');
    const usage = new ApiKeyUsageTracker(documents, clock);
    usage.touch('key_1');
    usage.touch('key_1');
    usage.touch('key_2');
    // Not written yet, but already visible to this process.
    assert.deepEqual([...(await usage.lastUsed(['key_1']))], [['key_1', '2026-03-01T10:00:00.000Z']]);
    await usage.flush();
    clock.advance(59_999);
    usage.touch('key_1');
    clock.advance(1);
    usage.touch('key_1');
    await usage.flush();
    assert.deepEqual(writes, [
      [API_KEY_USAGE_COLLECTION, { id: 'key_1', last_used_at: '2026-03-01T10:00:00.000Z' }],
      [API_KEY_USAGE_COLLECTION, { id: 'key_2', last_used_at: '2026-03-01T10:00:00.000Z' }],
      [API_KEY_USAGE_COLLECTION, { id: 'key_1', last_used_at: '2026-03-01T10:01:00.000Z' }],
    ]);
    assert.deepEqual(batches, [2, 1]);
  });

  it('remembers a bounded number of keys: a flood of distinct keys cannot grow memory', async () => {
    const documents = { applyBatch: async () => undefined } as unknown as DocumentStore;
    const usage = new ApiKeyUsageTracker(documents, new FakeClock('2026-03-01T10:00:00.000Z'));
    for (let i = 0; i < USAGE_TRACKED_KEYS_MAX + 500; i++) usage.touch(`key_${i}`);
    assert.equal(usage.trackedKeys, USAGE_TRACKED_KEYS_MAX);
    await usage.flush();
  });
});
