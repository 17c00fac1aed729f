import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type DocumentStore, MongoDocumentStore } from '#documents';
import { InMemoryRateLimitStore } from '../rate-limits/in-memory-rate-limit.adapter.js';
import { MongoRateLimitStore } from '../rate-limits/mongo-rate-limit.adapter.js';
import { rateLimitStoreFor } from './platform-access.module.js';

describe('rate-limit counter store binding', () => {
  it('keeps counters in memory when the read models are embedded', () => {
    assert.ok(rateLimitStoreFor({}, {} as DocumentStore) instanceof InMemoryRateLimitStore);
  });

  it('uses MongoDB, through the document store client, when MONGODB_URL is set', async () => {
    // Constructing the adapter does not connect.
    const documents = new MongoDocumentStore({ url: 'mongodb://127.0.0.1:9/?directConnection=true', database: 'unused' });
    try {
      assert.ok(rateLimitStoreFor({ mongoUrl: 'mongodb://127.0.0.1:9' }, documents) instanceof MongoRateLimitStore);
    } finally {
      await documents.close();
    }
  });
});
