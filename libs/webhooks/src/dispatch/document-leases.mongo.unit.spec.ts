import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MongoDocumentStore } from '#documents/testing';
import { DocumentLeases } from './leases.js';

/**
 * The scaled mode's lease writes as the MongoDB driver receives them (no server here; the
 * contract suite races them on a real MongoDB when MONGODB_URL is set, and on the embedded
 * document store always). A sender's claim is one read and ONE conditional write that takes the
 * lease and sets its sending mark together (ADR 0086): the write's filter holds everything read,
 * so a contender's write in between makes it match nothing.
 */
describe('DocumentLeases on MongoDB: a claim to send is one conditional write', () => {
  type Call = [op: string, ...args: unknown[]];
  class Recording extends MongoDocumentStore {
    readonly calls: Call[] = [];
    stored: Record<string, unknown> | null = null;
    override raw(): Promise<never> {
      const write =
        (op: string) =>
        (...args: unknown[]) => {
          this.calls.push([op, ...args]);
          return Promise.resolve({ matchedCount: 1, acknowledged: true });
        };
      return Promise.resolve({
        findOne: (...args: unknown[]) => {
          this.calls.push(['findOne', ...args]);
          return Promise.resolve(this.stored);
        },
        replaceOne: write('replaceOne'),
        insertOne: write('insertOne'),
        updateOne: write('updateOne'),
      } as never);
    }
  }
  const store = new Recording({ url: 'mongodb://127.0.0.1:1/', database: 'svc_test' });
  after(() => store.close());
  const now = 1_700_000_000_000;
  const leases = new DocumentLeases(store, () => now);

  it('absent: one insert carrying the mark (a duplicate id loses)', async () => {
    store.calls.length = 0;
    store.stored = null;
    const lease = await leases.claim('del_1:a1', 60_000, new Date(5000));
    assert.deepEqual(lease, { key: 'del_1:a1', expiresAt: now + 60_000, interruptedSendAt: null });
    assert.deepEqual(store.calls, [
      ['findOne', { _id: 'del_1:a1' }],
      ['insertOne', { _id: 'del_1:a1', owner: leases.owner, expires_at: now + 60_000, sending_at: 5000 }],
    ]);
  });

  it('expired and unmarked: one replaceOne filtered on the owner, expiry and mark read, writing this mark', async () => {
    store.calls.length = 0;
    store.stored = { _id: 'del_1:a1', owner: 'other', expires_at: now - 1, sending_at: null };
    assert.ok(await leases.claim('del_1:a1', 60_000, new Date(5000)));
    assert.deepEqual(store.calls, [
      ['findOne', { _id: 'del_1:a1' }],
      [
        'replaceOne',
        {
          $and: [
            { _id: 'del_1:a1' },
            { owner: { $eq: 'other' } },
            { expires_at: { $eq: now - 1 } },
            { sending_at: { $eq: null } },
          ],
        },
        { owner: leases.owner, expires_at: now + 60_000, sending_at: 5000 },
      ],
    ]);
  });

  it("expired with an earlier holder's mark: the mark is kept and reported, in the same one write", async () => {
    store.calls.length = 0;
    store.stored = { _id: 'del_1:a1', owner: 'killed', expires_at: now - 1, sending_at: 4000 };
    const lease = await leases.claim('del_1:a1', 60_000, new Date(5000));
    assert.equal(lease?.interruptedSendAt, 4000);
    assert.equal(store.calls.length, 2);
    assert.deepEqual(store.calls[1]?.[2], { owner: leases.owner, expires_at: now + 60_000, sending_at: 4000 });
    // Given back unsent: one conditional write on this holder's lease, the earlier mark restored.
    store.calls.length = 0;
    await leases.release(lease!);
    assert.deepEqual(store.calls, [
      [
        'replaceOne',
        { $and: [{ _id: 'del_1:a1' }, { owner: { $eq: leases.owner } }, { expires_at: { $eq: now + 60_000 } }] },
        { owner: leases.owner, expires_at: now, sending_at: 4000 },
      ],
    ]);
  });
});
