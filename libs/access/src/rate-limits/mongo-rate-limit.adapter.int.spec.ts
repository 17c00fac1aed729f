import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoDocumentStore } from '#documents/testing';
import { rateLimitStoreContract } from '#access/testing';
import { MongoRateLimitStore } from './mongo-rate-limit.adapter.js';

/**
 * The rate-limit store contract against a real MongoDB (`MONGODB_URL`, e.g. with
 * `docker compose up -d mongo`), sharing the document store's client as the api does. A fresh
 * random database, dropped at the end. Without the URL the suite is reported as skipped, by name.
 */
const url = process.env.MONGODB_URL;
const database = `svc_ratelimit_${randomBytes(6).toString('hex')}`;

rateLimitStoreContract(
  'MongoDB',
  async () => {
    const documents = new MongoDocumentStore({ url: url!, database });
    return { store: new MongoRateLimitStore(() => documents.database()), cleanup: () => documents.close() };
  },
  { skip: url ? undefined : 'MONGODB_URL not set' },
);

after(async () => {
  if (!url) return;
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 5000 });
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
});
