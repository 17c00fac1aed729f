import { randomBytes } from 'node:crypto';
import { after } from 'node:test';
import { MongoClient } from 'mongodb';
import { documentStoreContract } from '#documents/testing';
import { MongoDocumentStore } from './mongo-document-store.adapter.js';

/**
 * The document store contract against a real MongoDB (e.g. `docker compose up mongo` and
 * `MONGODB_URL=mongodb://localhost:27017/?directConnection=true`). The run gets a fresh random
 * database, dropped at the end. Without the URL the suite is reported as skipped, by name.
 */
const url = process.env.MONGODB_URL;
const database = `svc_contract_${randomBytes(6).toString('hex')}`;

documentStoreContract(
  'MongoDB',
  async () => {
    const opened: MongoDocumentStore[] = [];
    const open = (): MongoDocumentStore => {
      const store = new MongoDocumentStore({ url: url!, database });
      opened.push(store);
      return store;
    };
    return {
      store: open(),
      reopen: async () => open(),
      cleanup: async () => {
        await Promise.all(opened.map((store) => store.close()));
      },
    };
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
