import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InMemoryRateLimitStore, MongoRateLimitStore } from '#access';
import { type DocumentStore, MongoDocumentStore } from '#documents';
import { DocumentLeases } from '#webhooks';
import { deliveryLeasesFor, rateLimitStoreFor } from './shared-state.js';

describe('shared state chosen with the stores', () => {
  it('keeps rate-limit counters in memory when the read models are embedded, attempt leases in the document store', () => {
    assert.ok(rateLimitStoreFor({}) instanceof InMemoryRateLimitStore);
    // Processes sharing one data file see each other's attempt leases (ADR 0067).
    assert.ok(deliveryLeasesFor({ documents: {} as DocumentStore }) instanceof DocumentLeases);
  });

  it('uses MongoDB, through the document store client, when the read models live there', async () => {
    // Constructing the adapter does not connect.
    const mongo = new MongoDocumentStore({ url: 'mongodb://127.0.0.1:9/?directConnection=true', database: 'unused' });
    try {
      assert.ok(rateLimitStoreFor({ mongo }) instanceof MongoRateLimitStore);
      assert.ok(deliveryLeasesFor({ documents: mongo }) instanceof DocumentLeases);
    } finally {
      await mongo.close();
    }
  });
});
