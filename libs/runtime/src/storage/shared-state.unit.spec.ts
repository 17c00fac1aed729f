import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { MongoRateLimitStore, SqliteRateLimitStore } from '#access';
import type { DocumentStore } from '#documents';
import { MongoDocumentStore } from '#documents/testing';
import { DocumentLeases, SqliteDeliveryLeases } from '#webhooks';
import { deliveryLeasesFor, rateLimitStoreFor } from './shared-state.js';

describe('shared state chosen with the stores', () => {
  it('keeps rate-limit counters and attempt leases in the data directory when the read models are embedded', async () => {
    // Processes sharing one data directory share both (ADR 0067).
    const dataDir = await mkdtemp(join(tmpdir(), 'shared-state-'));
    const counters = rateLimitStoreFor({}, { dataDir });
    const leases = deliveryLeasesFor({ documents: {} as DocumentStore }, { dataDir });
    try {
      assert.ok(counters instanceof SqliteRateLimitStore);
      assert.ok(leases instanceof SqliteDeliveryLeases);
    } finally {
      await counters.close();
      await leases.close?.();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('uses MongoDB, through the document store client, when the read models live there', async () => {
    // Constructing the adapter does not connect.
    const mongo = new MongoDocumentStore({ url: 'mongodb://127.0.0.1:9/?directConnection=true', database: 'unused' });
    try {
      assert.ok(rateLimitStoreFor({ mongo }, { dataDir: '/nonexistent' }) instanceof MongoRateLimitStore);
      assert.ok(deliveryLeasesFor({ mongo, documents: mongo }, { dataDir: '/nonexistent' }) instanceof DocumentLeases);
    } finally {
      await mongo.close();
    }
  });
});
