import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AppError, type Decider, Errors } from '#kernel';
import { decideAndAppend, type EventStore, loadState, SqliteEventStore, WrongExpectedRevisionError } from '#eventstore';

/** A tiny aggregate: a counter that refuses to pass a maximum. */
type CounterEvent = { type: 'Incremented'; data: { value: number } };
type CounterCommand = { type: 'Increment'; max: number } | { type: 'Touch' };
const counter: Decider<CounterCommand, CounterEvent, { value: number }> = {
  initialState: { value: 0 },
  evolve: (_s, e) => ({ value: e.data.value }),
  decide(command, state) {
    if (command.type === 'Touch') return [];
    if (state.value >= command.max) throw Errors.conflict('The counter is at its maximum.', 'AT_MAX');
    return [{ type: 'Incremented', data: { value: state.value + 1 } }];
  },
};

describe('decideAndAppend (load stream → fold → decide → append with the expected revision)', () => {
  let dir: string;
  let store: EventStore;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'decide-append-'));
    store = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
  });
  after(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('decides first on a state the caller knows (no read), and reads the stream after a conflict', async () => {
    let reads = 0;
    const counting = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'readStream')
          return (...args: Parameters<EventStore['readStream']>) => (reads++, target.readStream(...args));
        return Reflect.get(target, prop, receiver) as unknown;
      },
    });
    const fresh = await decideAndAppend(
      counting,
      'counter-known',
      counter,
      { type: 'Increment', max: 10 },
      { known: { state: { value: 0 }, revision: null } },
    );
    assert.equal(fresh.revision, 0);
    assert.equal(reads, 0, 'a stream known to be new is not read');
    // A wrong guess (the stream exists now): the append conflicts, the stream is read, the decision is made again.
    const again = await decideAndAppend(
      counting,
      'counter-known',
      counter,
      { type: 'Increment', max: 10 },
      { known: { state: { value: 0 }, revision: null } },
    );
    assert.deepEqual(again.state, { value: 2 });
    assert.equal(reads, 1);
  });

  it('creates the stream (no_stream), then appends at the exact revision, returning position and state', async () => {
    const first = await decideAndAppend(
      store,
      'counter-a',
      counter,
      { type: 'Increment', max: 10 },
      { metadata: { request_id: 'r1' } },
    );
    assert.deepEqual(first.events, [{ type: 'Incremented', data: { value: 1 } }]);
    assert.deepEqual(first.state, { value: 1 });
    assert.equal(first.revision, 0);
    assert.ok(first.position! > 0);
    const second = await decideAndAppend(store, 'counter-a', counter, { type: 'Increment', max: 10 });
    assert.equal(second.revision, 1);
    assert.ok(second.position! > first.position!);
    const recorded = [];
    for await (const e of store.readStream('counter-a')) recorded.push(e);
    assert.deepEqual(
      recorded.map((e) => e.data),
      [{ value: 1 }, { value: 2 }],
    );
    assert.equal(recorded[0]!.metadata.request_id, 'r1');
    assert.deepEqual(await loadState(store, 'counter-a', counter), { state: { value: 2 }, revision: 1 });
  });

  it('appends nothing when the decider decides nothing (position null)', async () => {
    const result = await decideAndAppend(store, 'counter-b', counter, { type: 'Touch' });
    assert.deepEqual(result, { events: [], state: { value: 0 }, position: null, revision: null });
    assert.equal(await store.streamRevision('counter-b'), null);
  });

  it("passes the decider's refusal on and appends nothing", async () => {
    await decideAndAppend(store, 'counter-c', counter, { type: 'Increment', max: 1 });
    await assert.rejects(
      decideAndAppend(store, 'counter-c', counter, { type: 'Increment', max: 1 }),
      (e) => e instanceof AppError && e.code === 'AT_MAX',
    );
    assert.equal(await store.streamRevision('counter-c'), 0);
  });

  it('decides again on the new state when another writer got in first: concurrent commands all count', async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        decideAndAppend(store, 'counter-d', counter, { type: 'Increment', max: 100 }, { retries: 10 }),
      ),
    );
    assert.deepEqual(
      results.map((r) => r.state.value).sort((x, y) => x - y),
      [1, 2, 3, 4, 5],
    );
    assert.deepEqual(await loadState(store, 'counter-d', counter), { state: { value: 5 }, revision: 4 });
    // The rule still holds under contention: at most `max` increments, the rest refused.
    const capped = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        decideAndAppend(store, 'counter-e', counter, { type: 'Increment', max: 2 }, { retries: 10 }),
      ),
    );
    assert.equal(capped.filter((r) => r.status === 'fulfilled').length, 2);
    assert.ok(
      capped.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason.code === 'AT_MAX'),
    );
  });

  it('gives up with WrongExpectedRevisionError after the allowed retries', async () => {
    // A store where someone else always appends between our read and our append.
    const racing: EventStore = Object.create(store) as EventStore;
    racing.append = async (stream, events, expected) => {
      await store.append(stream, [{ type: 'Incremented', data: { value: 1000 } }]);
      return store.append(stream, events, expected);
    };
    await assert.rejects(
      decideAndAppend(racing, 'counter-f', counter, { type: 'Increment', max: 1_000_000 }, { retries: 2 }),
      WrongExpectedRevisionError,
    );
    assert.equal(await store.streamRevision('counter-f'), 2, 'three attempts, each beaten by the other writer');
  });
});
