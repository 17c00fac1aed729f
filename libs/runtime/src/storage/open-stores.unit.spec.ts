import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { MongoDocumentStore } from '#documents/testing';
import { SqliteEventStore } from '#eventstore';
import { loadConfig } from '#kernel';
import { openStores } from './open-stores.js';

describe('openStores: the adapters the configuration names', () => {
  it('the embedded SQLite file by default', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'open-stores-'));
    const stores = await openStores(loadConfig({ SVC_DATA_DIR: dataDir }));
    try {
      assert.ok(stores.events instanceof SqliteEventStore);
      assert.ok(stores.documents instanceof SqliteDocumentStore);
      assert.equal(stores.mongo, undefined);
    } finally {
      await stores.events.close();
      await stores.documents.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('EventStoreDB and MongoDB when their URLs are set, loaded on demand (constructing connects to nothing)', async () => {
    const stores = await openStores(
      loadConfig({
        EVENTSTORE_URL: 'esdb://127.0.0.1:9?tls=false',
        MONGODB_URL: 'mongodb://127.0.0.1:9/?directConnection=true',
        SVC_DATA_DIR: '/nonexistent',
      }),
    );
    try {
      assert.equal(stores.events.constructor.name, 'EsdbEventStore');
      assert.ok(stores.documents instanceof MongoDocumentStore, 'the same class the testing entry exports');
      assert.equal(stores.mongo, stores.documents);
    } finally {
      await stores.events.close();
      await stores.documents.close();
    }
  });
});
