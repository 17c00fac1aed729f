import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DocumentStore, SqliteDocumentStore } from '#documents';
import { deliveryLeasesContract } from '#webhooks/testing';
import { DocumentLeases } from './leases.js';

// The scaled mode's lease code on the embedded document store: one store per holder on one file,
// as two processes (the MongoDB run is document-leases.mongo.int.spec.ts).
deliveryLeasesContract('documents on embedded SQLite', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'document-leases-'));
  const stores: DocumentStore[] = [];
  return {
    open: (now) => {
      const store = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
      stores.push(store);
      return new DocumentLeases(store, now);
    },
    cleanup: async () => {
      for (const store of stores) await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
