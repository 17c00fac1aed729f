import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { InvalidFilterError } from '../document-store.port.js';
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
