import type { EsdbEventStore, EsdbEventStoreOptions } from './esdb-event-store.adapter.js';

export type { EsdbEventStore, EsdbEventStoreOptions };

/**
 * The EventStoreDB adapter, loaded only when EVENTSTORE_URL asks for it: its gRPC client costs
 * ~0.2 s of every process start (the api, the worker, each `svc` command) on the embedded
 * default, which never uses it.
 */
export async function openEsdbEventStore(options: EsdbEventStoreOptions): Promise<EsdbEventStore> {
  const { EsdbEventStore } = await import('./esdb-event-store.adapter.js');
  return new EsdbEventStore(options);
}
