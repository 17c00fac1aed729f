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

  describe('the folded state is cached (a grown stream costs a command no more than a fresh one)', () => {
    /** The store, counting the events its readStream yields. */
    function countingStore(): { store: EventStore; read: () => number } {
      let yielded = 0;
      const counted = new Proxy(store, {
        get(target, prop, receiver) {
          if (prop === 'readStream')
            return async function* (...args: Parameters<EventStore['readStream']>) {
              for await (const e of target.readStream(...args)) {
                yielded++;
                yield e;
              }
            };
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
      return { store: counted, read: () => yielded };
    }

    it('reads only the events after the state it folded before', async () => {
      const { store: counted, read } = countingStore();
      const stream = 'counter-grown';
      await store.append(
        stream,
        Array.from({ length: 5000 }, (_, i) => ({ type: 'Incremented', data: { value: i + 1 } })),
      );
      await decideAndAppend(counted, stream, counter, { type: 'Increment', max: 1_000_000 });
      assert.equal(read(), 5000, 'the first load after a start folds the stream whole');
      const before = read();
      for (let i = 0; i < 10; i++)
        await decideAndAppend(counted, stream, counter, { type: 'Increment', max: 1_000_000 });
      assert.equal(read() - before, 0, 'later commands read nothing: the state after each append is kept');
      assert.deepEqual(await loadState(counted, stream, counter), { state: { value: 5011 }, revision: 5010 });
    });

    it("catches up with another writer's appends (another process), and decides on them", async () => {
      const { store: counted, read } = countingStore();
      const stream = 'counter-shared';
      await decideAndAppend(counted, stream, counter, { type: 'Increment', max: 3 });
      // Another process appends behind this one's cache.
      await store.append(stream, [
        { type: 'Incremented', data: { value: 2 } },
        { type: 'Incremented', data: { value: 3 } },
      ]);
      const before = read();
      await assert.rejects(
        decideAndAppend(counted, stream, counter, { type: 'Increment', max: 3 }),
        (e) => e instanceof AppError && e.code === 'AT_MAX',
        'the decision sees the events appended elsewhere',
      );
      assert.equal(read() - before, 2, 'only the two new events are read');
      assert.equal(await store.streamRevision(stream), 2);
    });

    it('keeps a conflict safe: the cached prefix is caught up, never decided on stale', async () => {
      const racing: EventStore = Object.create(store) as EventStore;
      let raced = false;
      racing.append = async (stream, events, expected) => {
        if (!raced) {
          raced = true;
          await store.append(stream, [{ type: 'Incremented', data: { value: 50 } }]);
        }
        return store.append(stream, events, expected);
      };
      const first = await decideAndAppend(racing, 'counter-race', counter, { type: 'Increment', max: 100 });
      assert.deepEqual([first.state, first.revision], [{ value: 51 }, 1], 'decided again on the other writer’s 50');
      const second = await decideAndAppend(racing, 'counter-race', counter, { type: 'Increment', max: 100 });
      assert.deepEqual([second.state, second.revision], [{ value: 52 }, 2]);
    });
  });
});
