import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { AccessDeniedError, UnavailableError, type Position } from '@eventstore/db-client';
import { EventStoreUnavailableError, type RecordedEvent } from '../event-store.port.js';
import { ResubscribingAllSubscription, type AllSource } from './esdb-all-subscription.js';
import { isTransientEsdbError, mapEsdbError, planAllFilter, type EsdbEvent } from './esdb-mapping.js';

/** A stand-in for the client's subscription: a real object-mode Readable the test feeds. */
function fakeSource(): AllSource & { stream: Readable; push(event: EsdbEvent): void } {
  const stream = new Readable({ objectMode: true, read() {} });
  return {
    stream,
    push: (event) => stream.push({ event }),
    unsubscribe: async () => {
      stream.push(null);
    },
    destroy: (error?: Error) => stream.destroy(error),
    [Symbol.asyncIterator]: () => stream[Symbol.asyncIterator](),
  };
}

function esdbEvent(position: number, stream = 'orders-1', type = 'OrderPlaced'): EsdbEvent {
  const p = BigInt(position);
  return {
    streamId: stream,
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    revision: 0n,
    type,
    created: new Date('2026-01-01T00:00:00Z'),
    data: { position },
    metadata: undefined,
    position: { commit: p, prepare: p },
  };
}

function harness(after = 0, filter?: { eventTypePrefixes?: string[]; streamPrefixes?: string[] }) {
  const opened: Array<Position | null> = [];
  const sources: Array<ReturnType<typeof fakeSource>> = [];
  const plan = planAllFilter(filter);
  const subscription = new ResubscribingAllSubscription({
    after,
    open: (from) => {
      opened.push(from);
      const source = fakeSource();
      sources.push(source);
      return source;
    },
    accept: plan.accept,
    isTransient: isTransientEsdbError,
    mapError: (error) => mapEsdbError(error),
    initialBackoffMs: 1,
    maxBackoffMs: 5,
  });
  const iterator = subscription[Symbol.asyncIterator]();
  const next = async (): Promise<RecordedEvent> => {
    const step = await iterator.next();
    assert.equal(step.done, false, 'the subscription ended');
    return step.value as RecordedEvent;
  };
  return { subscription, iterator, opened, sources, next };
}

describe('ResubscribingAllSubscription (EventStoreDB subscription logic, no server)', () => {
  it('resubscribes after a transient failure from the last seen position, with no gap and no duplicate', async () => {
    const h = harness();
    const first = h.next();
    assert.equal(h.sources.length, 1);
    h.sources[0]!.push(esdbEvent(10));
    h.sources[0]!.push(esdbEvent(20));
    assert.equal((await first).position, 10);
    assert.equal((await h.next()).position, 20);

    const third = h.next();
    h.sources[0]!.push(esdbEvent(25, '$stats-127.0.0.1:2113', '$statsCollected')); // system: skipped, but seen
    h.sources[0]!.push(esdbEvent(30));
    assert.equal((await third).position, 30);

    const fourth = h.next();
    h.sources[0]!.destroy(new UnavailableError());
    // The second server subscription starts after 30 (exclusive), yet a replayed 30 is dropped.
    await waitFor(() => h.sources.length === 2);
    assert.deepEqual(h.opened, [null, { commit: 30n, prepare: 30n }]);
    h.sources[1]!.push(esdbEvent(30));
    h.sources[1]!.push(esdbEvent(40));
    const received = await fourth;
    assert.equal(received.position, 40);
    assert.equal(received.stream, 'orders-1');
    assert.deepEqual(received.data, { position: 40 });
    assert.deepEqual(received.metadata, {});
    assert.equal(received.created, '2026-01-01T00:00:00.000Z');

    await h.subscription.close();
    assert.deepEqual(await h.iterator.next(), { value: undefined, done: true });
  });

  it('starts after `after` (exclusive) and drops anything at or below it', async () => {
    const h = harness(50);
    const first = h.next();
    assert.deepEqual(h.opened, [{ commit: 50n, prepare: 50n }]);
    h.sources[0]!.push(esdbEvent(50));
    h.sources[0]!.push(esdbEvent(60));
    assert.equal((await first).position, 60);
    await h.subscription.close();
  });

  it('applies the client-side part of a filter and still advances past rejected events', async () => {
    const h = harness(0, { eventTypePrefixes: ['Order'], streamPrefixes: ['orders-'] });
    const first = h.next();
    h.sources[0]!.push(esdbEvent(10, 'carts-1', 'OrderPlaced')); // wrong stream: filtered here
    h.sources[0]!.push(esdbEvent(20, 'orders-2', 'OrderShipped'));
    assert.equal((await first).position, 20);
    const second = h.next();
    h.sources[0]!.destroy(new UnavailableError());
    await waitFor(() => h.sources.length === 2);
    assert.deepEqual(h.opened[1], { commit: 20n, prepare: 20n });
    h.sources[1]!.push(esdbEvent(30, 'orders-3', 'OrderPlaced'));
    assert.equal((await second).position, 30);
    await h.subscription.close();
  });

  it('close() ends an iteration that is waiting for live events', async () => {
    const h = harness();
    const pending = h.iterator.next();
    await waitFor(() => h.sources.length === 1);
    await h.subscription.close();
    assert.deepEqual(await pending, { value: undefined, done: true });
    assert.equal(h.sources.length, 1, 'no resubscription after close');
  });

  it('hands a non-transient failure to the consumer instead of retrying', async () => {
    const h = harness();
    const pending = h.iterator.next();
    await waitFor(() => h.sources.length === 1);
    h.sources[0]!.destroy(new AccessDeniedError());
    await assert.rejects(pending, AccessDeniedError);
    assert.equal(h.sources.length, 1);
  });

  it('maps an unavailable server to EventStoreUnavailableError when it is not retried', () => {
    assert.ok(mapEsdbError(new UnavailableError()) instanceof EventStoreUnavailableError);
  });

  it('hands out one shared iterator, so a second reader continues where the first stopped', async () => {
    const h = harness();
    const first = h.next();
    h.sources[0]!.push(esdbEvent(10));
    h.sources[0]!.push(esdbEvent(20));
    assert.equal((await first).position, 10);
    const again = h.subscription[Symbol.asyncIterator]();
    assert.equal(again, h.iterator);
    assert.equal(((await again.next()).value as RecordedEvent).position, 20);
    assert.equal(h.subscription.position, 20);
    await h.subscription.close();
  });
});

/** Polls a condition (bounded), for state reached asynchronously. */
async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
