import { eventStoreContract } from '#eventstore/testing';
import { EsdbEventStore } from './esdb-event-store.adapter.js';

/**
 * The event store contract against a real EventStoreDB (e.g. `docker compose up eventstore` and
 * `EVENTSTORE_URL=esdb://localhost:2113?tls=false`). Every test uses its own random stream and
 * type prefixes, so a server that holds other data is fine. Without the URL the suite is
 * reported as skipped, by name.
 */
const url = process.env.EVENTSTORE_URL;

eventStoreContract(
  'EventStoreDB',
  async () => {
    const opened: EsdbEventStore[] = [];
    const open = (): EsdbEventStore => {
      const store = new EsdbEventStore({ url: url! });
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
  { skip: url ? undefined : 'EVENTSTORE_URL not set' },
);
