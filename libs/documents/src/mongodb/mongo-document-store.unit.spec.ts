import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConcurrentModificationError, DuplicateKeyError, InvalidFilterError } from '../document-store.port.js';
import { MongoDocumentStore } from './mongo-document-store.adapter.js';

/**
 * The adapter with no MongoDB listening (connection refused). The contract suite
 * (mongo-document-store.int.spec.ts) covers the real semantics when MONGODB_URL is set.
 */
describe('MongoDocumentStore without a reachable server', () => {
  let store: MongoDocumentStore;

  before(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    store = new MongoDocumentStore({
      url: `mongodb://127.0.0.1:${port}/`,
      database: 'svc_test',
      serverSelectionTimeoutMS: 200,
      pingTimeoutMs: 100,
    });
  });

  after(async () => {
    await store.close();
  });

  it('ping rejects (so /health answers 503) instead of hanging', async () => {
    await assert.rejects(store.ping(), /MongoDB ping failed/);
  });

  it('keeps trying to connect on later calls (the driver alone would stay "Topology is closed")', async () => {
    for (let i = 0; i < 3; i++) {
      await assert.rejects(store.collection('things').get('a'), (error: Error) => {
        assert.doesNotMatch(error.message, /Topology is closed/);
        assert.equal(error.name, 'MongoServerSelectionError');
        return true;
      });
    }
  });

  it('rejects invalid filters, cursors, limits and names before any I/O', async () => {
    const things = store.collection('things');
    await assert.rejects(things.find({ a: { $regex: 'x' } } as never), InvalidFilterError);
    await assert.rejects(things.find({}, { limit: 0 }), InvalidFilterError);
    await assert.rejects(things.find({}, { after: 'not-a-cursor' }), InvalidFilterError);
    await assert.rejects(things.count({ 'a..b': 1 }), InvalidFilterError);
    await assert.rejects(things.deleteMany(undefined as never), InvalidFilterError);
    assert.throws(() => store.collection('bad name'), TypeError);
    await assert.rejects(store.applyBatch([{ kind: 'delete', collection: '$cmd', id: 'x' }]), TypeError);
    await assert.rejects(things.upsert({ id: '' }), TypeError);
  });

  it('refuses work after close', async () => {
    const closed = new MongoDocumentStore({ url: 'mongodb://127.0.0.1:1/', database: 'svc_test' });
    await closed.close();
    await assert.rejects(closed.collection('things').get('a'), /closed/);
    await closed.close(); // idempotent
  });
});

/**
 * The single-use writes as the driver receives them (no server here; the contract suite's race
 * tests run them against a real MongoDB when MONGODB_URL is set): the condition travels in the
 * write's own filter and the result's count decides, so MongoDB's single-document atomicity
 * is what makes one contender win. Never a findOne followed by a write.
 */
describe('MongoDocumentStore single-use writes: one conditional write each', () => {
  type Call = [op: string, ...args: unknown[]];
  class Recording extends MongoDocumentStore {
    readonly calls: Call[] = [];
    answer: { matchedCount?: number; error?: unknown } = { matchedCount: 1 };
    override raw(): Promise<never> {
      const answer =
        (op: string) =>
        (...args: unknown[]) => {
          this.calls.push([op, ...args]);
          if (this.answer.error) return Promise.reject(this.answer.error);
          return Promise.resolve({ matchedCount: this.answer.matchedCount, acknowledged: true });
        };
      const reading = () => Promise.reject(new Error('a single-use write must not read first'));
      return Promise.resolve({
        updateOne: answer('updateOne'),
        replaceOne: answer('replaceOne'),
        insertOne: answer('insertOne'),
        findOne: reading,
        find: reading,
      } as never);
    }
  }
  const duplicateId = Object.assign(new Error('E11000 duplicate key error index: _id_ dup key'), {
    code: 11000,
    keyPattern: { _id: 1 },
  });
  const store = new Recording({ url: 'mongodb://127.0.0.1:1/', database: 'svc_test' });
  after(() => store.close());

  it('updateIf: updateOne filtered on the id and the condition, $set of the fields; matchedCount decides', async () => {
    const codes = store.collection('codes');
    assert.equal(await codes.updateIf('c1', { consumed_at: null }, { consumed_at: 5 }), true);
    assert.deepEqual(store.calls.pop(), [
      'updateOne',
      { $and: [{ _id: 'c1' }, { consumed_at: { $eq: null } }] },
      { $set: { consumed_at: 5 } },
    ]);
    store.answer = { matchedCount: 0 };
    assert.equal(await codes.updateIf('c1', { consumed_at: null }, { consumed_at: 6 }), false, 'lost the race');
    store.answer = { error: Object.assign(new Error('E11000'), { code: 11000, keyPattern: { email: 1 } }) };
    await assert.rejects(codes.updateIf('c1', {}, { email: 'x' }), DuplicateKeyError);
    store.answer = { matchedCount: 1 };
  });

  it('cas: an insert for "must not exist" (a duplicate id loses), else a replaceOne filtered on the expected fields', async () => {
    await store.applyBatch([{ kind: 'cas', collection: 'leases', doc: { id: 'l1', v: 1 }, expect: { v: 0, o: null } }]);
    assert.deepEqual(store.calls.pop(), [
      'replaceOne',
      { $and: [{ _id: 'l1' }, { v: { $eq: 0 } }, { o: { $eq: null } }] },
      { v: 1 },
    ]);
    store.answer = { matchedCount: 0 };
    await assert.rejects(
      store.applyBatch([{ kind: 'cas', collection: 'leases', doc: { id: 'l1', v: 2 }, expect: { v: 0 } }]),
      ConcurrentModificationError,
    );
    store.answer = { error: duplicateId };
    await assert.rejects(
      store.applyBatch([{ kind: 'cas', collection: 'leases', doc: { id: 'l2', v: 0 }, expect: null }]),
      ConcurrentModificationError,
    );
    assert.deepEqual(store.calls.pop(), ['insertOne', { _id: 'l2', v: 0 }]);
    store.answer = { matchedCount: 1 };
  });
});
