import type { MongoDocumentStore, MongoDocumentStoreOptions } from './mongo-document-store.adapter.js';

export type { MongoDocumentStore, MongoDocumentStoreOptions };

/**
 * The MongoDB adapter, loaded only when MONGODB_URL asks for it: the driver costs ~0.2 s of every
 * process start (the api, the worker, each `svc` command) on the embedded default, which never
 * uses it. Constructing it does not connect.
 */
export async function openMongoDocumentStore(options: MongoDocumentStoreOptions): Promise<MongoDocumentStore> {
  const { MongoDocumentStore } = await import('./mongo-document-store.adapter.js');
  return new MongoDocumentStore(options);
}
