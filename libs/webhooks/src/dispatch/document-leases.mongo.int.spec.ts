import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import type { DocumentStore } from '#documents';
import { MongoDocumentStore } from '#documents/testing';
import { deliveryLeasesContract } from '#webhooks/testing';
import { DocumentLeases } from './leases.js';

/**
 * The attempt lease contract against a real MongoDB (`MONGODB_URL`, e.g. with `docker compose up
 * -d mongo`): each holder a client of its own, as two workers. A fresh random database per test,
 * dropped at the end. Without the URL the suite is reported as skipped, by name.
 */
const url = process.env.MONGODB_URL;
const databases: string[] = [];

deliveryLeasesContract(
  'MongoDB',
  async () => {
    const database = `svc_leases_${randomBytes(6).toString('hex')}`;
    databases.push(database);
    const stores: DocumentStore[] = [];
    return {
      open: (now) => {
        const store = new MongoDocumentStore({ url: url!, database });
        stores.push(store);
        return new DocumentLeases(store, now);
      },
      cleanup: async () => {
        for (const store of stores) await store.close();
      },
    };
  },
  { skip: url ? undefined : 'MONGODB_URL not set' },
);

after(async () => {
  if (!url) return;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    for (const database of databases) await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
});
