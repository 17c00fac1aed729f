import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { EventStoreUnavailableError } from '../event-store.port.js';
import { EsdbEventStore } from './esdb-event-store.adapter.js';

/**
 * The adapter against servers that are not EventStoreDB: a closed port (connection refused) and
 * a port that accepts connections and never answers. No EventStoreDB is needed; the contract
 * suite (esdb-event-store.int.spec.ts) covers the real semantics when EVENTSTORE_URL is set.
 */
describe('EsdbEventStore without a reachable server', () => {
  let closedPort: number;
  let silent: Server;
  const sockets = new Set<Socket>();

  before(async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it('maps a refused connection to EventStoreUnavailableError on every operation', async () => {
    const store = new EsdbEventStore({ url: `esdb://127.0.0.1:${closedPort}?tls=false` });
    try {
      await assert.rejects(store.ping(), EventStoreUnavailableError);
      await assert.rejects(
        store.append('orders-1', [{ type: 'OrderPlaced', data: {} }], 'no_stream'),
        EventStoreUnavailableError,
      );
      await assert.rejects(store.streamRevision('orders-1'), EventStoreUnavailableError);
      await assert.rejects(store.headPosition(), EventStoreUnavailableError);
      await assert.rejects(drain(store.readAll()), EventStoreUnavailableError);
    } finally {
      await store.close();
    }
  });

  it('bounds ping by its timeout when the server never answers', async () => {
    const port = (silent.address() as { port: number }).port;
    const store = new EsdbEventStore({ url: `esdb://127.0.0.1:${port}?tls=false`, pingTimeoutMs: 200 });
    try {
      await assert.rejects(store.ping(), EventStoreUnavailableError);
    } finally {
      await store.close();
    }
  });

  it('validates appends before any network call, like the embedded adapter', async () => {
    const store = new EsdbEventStore({ url: `esdb://127.0.0.1:${closedPort}?tls=false` });
    try {
      await assert.rejects(store.append('$system', [{ type: 'X', data: {} }]), /reserved/);
      await assert.rejects(store.append('s-1', [{ type: '$X', data: {} }]), /reserved/);
      await assert.rejects(store.append('s-1', []), /at least one event/);
      await assert.rejects(store.append('s-1', [{ id: 'not-a-uuid', type: 'X', data: {} }]), /not a UUID/);
      await assert.rejects(store.append('s-1', [{ type: 'X', data: {} }], -2), /expected revision/);
    } finally {
      await store.close();
    }
  });

  it('ends open subscriptions on close and refuses work afterwards', async () => {
    const store = new EsdbEventStore({ url: `esdb://127.0.0.1:${closedPort}?tls=false` });
    const subscription = store.subscribeToAll();
    const pending = subscription[Symbol.asyncIterator]().next();
    await store.close();
    assert.deepEqual(await pending, { value: undefined, done: true });
    await assert.rejects(store.append('s-1', [{ type: 'X', data: {} }]), /closed/);
    await store.close(); // idempotent
  });
});

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of iterable) {
    // nothing to do: the read must fail before yielding
  }
}
