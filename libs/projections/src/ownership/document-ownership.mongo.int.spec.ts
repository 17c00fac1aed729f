import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoDocumentStore } from '#documents/testing';
import { ownershipLeasesContract } from '../testing/ownership-leases.contract.js';

/**
 * The ownership lease contract against a real MongoDB (`MONGODB_URL`, e.g. with `docker compose
 * up -d mongo`): each connection a client of its own, as two workers. A fresh random database,
 * dropped at the end. Without the URL the suite is reported as skipped, by name.
 */
const url = process.env.MONGODB_URL;
const databases: string[] = [];

ownershipLeasesContract(
  'MongoDB',
  async () => {
    const database = `svc_ownership_${randomBytes(6).toString('hex')}`;
    databases.push(database);
    return { connect: () => new MongoDocumentStore({ url: url!, database }), cleanup: async () => {} };
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
