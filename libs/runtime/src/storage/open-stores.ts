import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AppConfig } from '#kernel';
import { type DocumentStore, type MongoDocumentStore, openMongoDocumentStore, SqliteDocumentStore } from '#documents';
import { type EventStore, openEsdbEventStore, SqliteEventStore } from '#eventstore';

export interface Stores {
  events: EventStore;
  documents: DocumentStore;
  /** The MongoDB document store when MONGODB_URL is set (the scaled mode's shared state). */
  mongo?: MongoDocumentStore;
}

/** The embedded SQLite file: one per data directory, shared by both embedded stores. */
export function sqlitePath(config: Pick<AppConfig, 'dataDir'>): string {
  return join(config.dataDir, 'svc.sqlite');
}

/**
 * Opens the configured adapters (DESIGN §2): EventStoreDB when EVENTSTORE_URL is set, MongoDB
 * when MONGODB_URL is set, else the embedded SQLite file under SVC_DATA_DIR (created if missing).
 * The server adapters' clients are loaded only when configured.
 */
export async function openStores(config: AppConfig): Promise<Stores> {
  const usesSqlite = !config.eventStoreUrl || !config.mongoUrl;
  if (usesSqlite) mkdirSync(config.dataDir, { recursive: true });
  const events: EventStore = config.eventStoreUrl
    ? await openEsdbEventStore({ url: config.eventStoreUrl })
    : new SqliteEventStore({ path: sqlitePath(config) });
  try {
    if (config.mongoUrl) {
      const mongo = await openMongoDocumentStore({ url: config.mongoUrl, database: config.mongoDatabase });
      return { events, documents: mongo, mongo };
    }
    return { events, documents: new SqliteDocumentStore({ path: sqlitePath(config) }) };
  } catch (error) {
    void events.close();
    throw error;
  }
}
