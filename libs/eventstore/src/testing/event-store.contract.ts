// Over 400 lines on purpose: the one contract every event-store adapter passes, one list of
// cases over one fixture; it is read as the specification of the port.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it, type TestContext } from 'node:test';
import {
  WrongExpectedRevisionError,
  type AllSubscription,
  type EventStore,
  type ExpectedRevision,
  type RecordedEvent,
} from '#eventstore';

export interface EventStoreFixture {
  store: EventStore;
  /** Opens a new store on the same data (after `store.close()`); omit when the adapter cannot. */
  reopen?: () => Promise<EventStore>;
  /** Closes every store the fixture opened (close is idempotent) and removes its data. */
  cleanup(): Promise<void>;
}

/**
 * The behaviour every EventStore adapter must show (DESIGN §2, EventStoreDB semantics).
 * Each test gets a fresh fixture and uses its own random stream and type prefixes, so the suite
 * also runs against a shared server that holds other data. Pass `skip` (the reason) to register
 * the suite as skipped, e.g. when the server's URL is not set.
 */
export function eventStoreContract(
  adapterName: string,
  factory: () => Promise<EventStoreFixture>,
  options: { skip?: string } = {},
): void {
  const test = (name: string, fn: (f: EventStoreFixture, p: Prefixes, t: TestContext) => Promise<void>) =>
    void it(name, async (t) => {
      const fixture = await factory();
      try {
        await fn(fixture, prefixes(), t);
      } finally {
        await fixture.cleanup();
      }
    });

  describe(`EventStore contract: ${adapterName}`, options.skip ? { skip: options.skip } : {}, () => {
    describe('append and expected revision', () => {
      test('no_stream creates a stream: revisions from 0, growing positions, fields read back', async ({
        store,
      }, p) => {
        const id = randomUUID();
        const result = await store.append(
          p.stream('a'),
          [
            { id, type: p.type('Opened'), data: { n: 1, nested: { ok: true } }, metadata: { by: 'test' } },
            { type: p.type('Noted'), data: 'text' },
            { type: p.type('Noted'), data: [1, 2, 3] },
          ],
          'no_stream',
        );
        assert.equal(result.nextExpectedRevision, 2);
        const events = await collect(store.readStream(p.stream('a')));
        assert.deepEqual(
          events.map((e) => [e.stream, e.revision, e.type]),
          [
            [p.stream('a'), 0, p.type('Opened')],
            [p.stream('a'), 1, p.type('Noted')],
            [p.stream('a'), 2, p.type('Noted')],
          ],
        );
        assert.equal(events[0]!.id, id);
        assert.match(events[1]!.id, UUID_V4, 'an absent id is generated as a UUID v4');
        assert.notEqual(events[1]!.id, events[2]!.id);
        assert.deepEqual(events[0]!.data, { n: 1, nested: { ok: true } });
        assert.deepEqual(events[0]!.metadata, { by: 'test' });
        assert.equal(events[1]!.data, 'text');
        assert.deepEqual(events[1]!.metadata, {}, 'absent metadata reads back as {}');
        assert.deepEqual(events[2]!.data, [1, 2, 3]);
        assert.ok(events[0]!.position > 0);
        assert.ok(events[0]!.position < events[1]!.position && events[1]!.position < events[2]!.position);
        assert.equal(result.position, events[2]!.position, 'the result carries the position of the last event');
        for (const e of events) assert.ok(!Number.isNaN(Date.parse(e.created)), `created is a date: ${e.created}`);
      });

      test('no_stream conflicts when the stream exists, and writes nothing', async ({ store }, p) => {
        await store.append(p.stream('a'), [ev(p)], 'no_stream');
        await assertConflict(store.append(p.stream('a'), [ev(p), ev(p)], 'no_stream'), p.stream('a'), 'no_stream', 0);
        assert.equal(await store.streamRevision(p.stream('a')), 0);
      });

      test('stream_exists conflicts on an absent stream and appends to an existing one', async ({ store }, p) => {
        await assertConflict(
          store.append(p.stream('a'), [ev(p)], 'stream_exists'),
          p.stream('a'),
          'stream_exists',
          null,
        );
        assert.equal(await store.streamRevision(p.stream('a')), null);
        await store.append(p.stream('a'), [ev(p)], 'no_stream');
        const result = await store.append(p.stream('a'), [ev(p)], 'stream_exists');
        assert.equal(result.nextExpectedRevision, 1);
      });

      test('an exact revision appends when it is current and conflicts otherwise', async ({ store }, p) => {
        await assertConflict(store.append(p.stream('a'), [ev(p)], 0), p.stream('a'), 0, null);
        await store.append(p.stream('a'), [ev(p), ev(p)], 'no_stream');
        const result = await store.append(p.stream('a'), [ev(p)], 1);
        assert.equal(result.nextExpectedRevision, 2);
        await assertConflict(store.append(p.stream('a'), [ev(p)], 1), p.stream('a'), 1, 2);
        await assertConflict(store.append(p.stream('a'), [ev(p)], 7), p.stream('a'), 7, 2);
        assert.equal(await store.streamRevision(p.stream('a')), 2);
      });

      test('any appends whatever the state and is the default', async ({ store }, p) => {
        assert.equal((await store.append(p.stream('a'), [ev(p)], 'any')).nextExpectedRevision, 0);
        assert.equal((await store.append(p.stream('a'), [ev(p), ev(p)], 'any')).nextExpectedRevision, 2);
        assert.equal((await store.append(p.stream('a'), [ev(p)])).nextExpectedRevision, 3);
        assert.equal((await store.append(p.stream('b'), [ev(p)])).nextExpectedRevision, 0);
      });

      test('50 concurrent appends racing for one revision: exactly one wins', async ({ store }, p) => {
        await store.append(p.stream('a'), [ev(p)], 'no_stream');
        const ids = Array.from({ length: 50 }, () => randomUUID());
        const settled = await Promise.allSettled(
          ids.map((id) => store.append(p.stream('a'), [{ id, type: p.type('Raced'), data: { id } }], 0)),
        );
        const won = settled.flatMap((s, i) => (s.status === 'fulfilled' ? [i] : []));
        assert.equal(won.length, 1, 'exactly one append wins');
        for (const s of settled) {
          if (s.status === 'rejected') {
            assert.ok(
              s.reason instanceof WrongExpectedRevisionError,
              `losers get WrongExpectedRevisionError, got ${String(s.reason)}`,
            );
            assert.equal(s.reason.actual, 1);
          }
        }
        const events = await collect(store.readStream(p.stream('a')));
        assert.equal(events.length, 2);
        assert.equal(events[1]!.id, ids[won[0]!]);
      });

      test('50 concurrent no_stream appends racing to create a stream: exactly one wins', async ({ store }, p) => {
        const settled = await Promise.allSettled(
          Array.from({ length: 50 }, () => store.append(p.stream('a'), [ev(p), ev(p)], 'no_stream')),
        );
        assert.equal(settled.filter((s) => s.status === 'fulfilled').length, 1);
        for (const s of settled) {
          if (s.status === 'rejected') assert.ok(s.reason instanceof WrongExpectedRevisionError, String(s.reason));
        }
        assert.equal(
          (await collect(store.readStream(p.stream('a')))).length,
          2,
          'the winner wrote both events, the losers none',
        );
      });

      test('re-appending the same event ids at the same place is idempotent', async ({ store }, p) => {
        const a = [ev(p, randomUUID()), ev(p, randomUUID())];
        const first = await store.append(p.stream('a'), a, 'no_stream');
        assert.deepEqual(await store.append(p.stream('a'), a, 'no_stream'), first, 'retry with no_stream');

        const b = [ev(p, randomUUID())];
        const second = await store.append(p.stream('a'), b, 1);
        assert.deepEqual(await store.append(p.stream('a'), b, 1), second, 'retry with the exact revision');

        const c = [ev(p, randomUUID()), ev(p, randomUUID())];
        const third = await store.append(p.stream('a'), c, 'any');
        assert.deepEqual(await store.append(p.stream('a'), c, 'any'), third, 'retry with any');

        // A late retry, after the stream moved on, still gets the original result.
        assert.deepEqual(await store.append(p.stream('a'), a, 'no_stream'), first, 'late retry with no_stream');
        assert.deepEqual(await store.append(p.stream('a'), b, 1), second, 'late retry with the exact revision');

        const events = await collect(store.readStream(p.stream('a')));
        assert.deepEqual(
          events.map((e) => e.id),
          [...a, ...b, ...c].map((e) => e.id),
          'nothing was written twice',
        );
      });

      test('invalid appends are rejected with a clear error and write nothing', async ({ store }, p) => {
        const stream = p.stream('a');
        await assert.rejects(store.append(stream, [{ type: '$System', data: {} }]), /\$/);
        await assert.rejects(store.append(stream, [{ type: '', data: {} }]), /type/);
        await assert.rejects(store.append(stream, [ev(p), { type: p.type('Big'), data: { n: 1n } }]), /JSON/);
        await assert.rejects(store.append(stream, []), /event/);
        await assert.rejects(store.append(`$${stream}`, [ev(p)]), /\$/);
        assert.equal(await store.streamRevision(stream), null);
      });
    });

    describe('reads', () => {
      test('readStream forwards and backwards, from a revision, with maxCount', async ({ store }, p) => {
        const stream = p.stream('a');
        await store.append(
          stream,
          Array.from({ length: 10 }, () => ev(p)),
          'no_stream',
        );
        const revs = async (options?: Parameters<EventStore['readStream']>[1]) =>
          (await collect(store.readStream(stream, options))).map((e) => e.revision);
        assert.deepEqual(await revs(), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert.deepEqual(await revs({ fromRevision: 3, maxCount: 4 }), [3, 4, 5, 6]);
        assert.deepEqual(await revs({ fromRevision: 'start', maxCount: 2 }), [0, 1]);
        assert.deepEqual(await revs({ fromRevision: 8, maxCount: 10 }), [8, 9]);
        assert.deepEqual(await revs({ fromRevision: 10 }), []);
        assert.deepEqual(await revs({ direction: 'backwards' }), [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        assert.deepEqual(await revs({ direction: 'backwards', maxCount: 2 }), [9, 8]);
        assert.deepEqual(await revs({ direction: 'backwards', fromRevision: 'end', maxCount: 1 }), [9]);
        assert.deepEqual(await revs({ direction: 'backwards', fromRevision: 5, maxCount: 3 }), [5, 4, 3]);
        assert.deepEqual(await revs({ direction: 'backwards', fromRevision: 1 }), [1, 0]);
        assert.deepEqual(await collect(store.readStream(p.stream('absent'))), [], 'an absent stream yields nothing');
      });

      test('readStream pages through a long stream in both directions', async ({ store }, p) => {
        const stream = p.stream('long');
        for (let i = 0; i < 5; i++)
          await store.append(
            stream,
            Array.from({ length: 500 }, (_, j) => ev(p, undefined, { i: i * 500 + j })),
          );
        const forwards = await collect(store.readStream(stream));
        assert.equal(forwards.length, 2500);
        assert.ok(forwards.every((e, i) => e.revision === i && (e.data as { i: number }).i === i));
        const backwards = await collect(store.readStream(stream, { direction: 'backwards', fromRevision: 2200 }));
        assert.equal(backwards.length, 2201);
        assert.ok(backwards.every((e, i) => e.revision === 2200 - i));
        assert.equal(
          (await collect(store.readStream(stream, { fromRevision: 600, maxCount: 1500 }))).at(-1)!.revision,
          2099,
        );
      });

      test('readAll filters by event type prefix and stream prefix, forwards and backwards', async ({ store }, p) => {
        const start = await store.headPosition();
        // Interleave streams and types so the filters have something to leave out.
        for (let i = 0; i < 6; i++) {
          await store.append(p.stream(`x-${i % 2}`), [ev(p, undefined, { i }, i % 3 === 0 ? 'Foo' : 'Bar')]);
          await store.append(p.stream(`y-${i % 2}`), [ev(p, undefined, { i }, 'Foo')]);
        }
        const ours = await collect(store.readAll({ after: start, filter: { streamPrefixes: [p.streams] } }));
        assert.equal(ours.length, 12);
        assertIncreasing(ours);

        const foo = await collect(store.readAll({ after: start, filter: { eventTypePrefixes: [p.type('Foo')] } }));
        assert.deepEqual(ids(foo), ids(ours.filter((e) => e.type === p.type('Foo'))));

        const x = await collect(store.readAll({ after: start, filter: { streamPrefixes: [p.stream('x-')] } }));
        assert.deepEqual(ids(x), ids(ours.filter((e) => e.stream.startsWith(p.stream('x-')))));

        const xFoo = await collect(
          store.readAll({
            after: start,
            filter: { streamPrefixes: [p.stream('x-')], eventTypePrefixes: [p.type('Foo')] },
          }),
        );
        assert.deepEqual(
          ids(xFoo),
          ids(ours.filter((e) => e.stream.startsWith(p.stream('x-')) && e.type === p.type('Foo'))),
        );
        assert.equal(xFoo.length, 2);

        const union = await collect(
          store.readAll({ after: start, filter: { streamPrefixes: [p.stream('x-1'), p.stream('y-0')] } }),
        );
        assert.deepEqual(
          ids(union),
          ids(ours.filter((e) => e.stream === p.stream('x-1') || e.stream === p.stream('y-0'))),
        );

        const lastThree = await collect(
          store.readAll({ direction: 'backwards', maxCount: 3, filter: { streamPrefixes: [p.streams] } }),
        );
        assert.deepEqual(ids(lastThree), ids(ours.slice(-3).reverse()));

        const beforeSixth = await collect(
          store.readAll({ direction: 'backwards', before: ours[5]!.position, filter: { streamPrefixes: [p.streams] } }),
        );
        assert.deepEqual(ids(beforeSixth), ids(ours.slice(0, 5).reverse()));

        const afterThird = await collect(
          store.readAll({ after: ours[2]!.position, maxCount: 4, filter: { streamPrefixes: [p.streams] } }),
        );
        assert.deepEqual(ids(afterThird), ids(ours.slice(3, 7)));
      });

      test('readAll without a filter yields every event after a position, in position order', async ({ store }, p) => {
        const start = await store.headPosition();
        const results = [];
        for (let i = 0; i < 5; i++) results.push(await store.append(p.stream(`s${i}`), [ev(p), ev(p)]));
        const all = await collect(store.readAll({ after: start }));
        assertIncreasing(all);
        assert.ok(all.every((e) => e.position > start));
        const ours = all.filter((e) => e.stream.startsWith(p.streams));
        assert.equal(ours.length, 10);
        assert.equal(ours.at(-1)!.position, results.at(-1)!.position);
        assert.ok((await store.headPosition()) >= results.at(-1)!.position);
      });
    });

    describe('subscribeToAll', () => {
      test('catches up, then goes live: events appended during catch-up arrive exactly once, in order', async ({
        store,
      }, p) => {
        const start = await store.headPosition();
        for (let i = 0; i < 10; i++) await store.append(p.stream(`seed-${i}`), [ev(p), ev(p), ev(p)]);
        const filter = { streamPrefixes: [p.streams] };
        const subscription = store.subscribeToAll({ after: start, filter });
        let writers: Promise<unknown> | undefined;
        const sentinel = randomUUID();
        const received = await take(
          subscription,
          (e) => e.id === sentinel,
          () => {
            // On the first caught-up event, race appends against the rest of the catch-up.
            writers ??= (async () => {
              await Promise.all(
                Array.from({ length: 20 }, (_, i) => store.append(p.stream(`live-${i % 4}`), [ev(p), ev(p)])),
              );
              await store.append(p.stream('end'), [ev(p, sentinel)]);
            })();
          },
        );
        await writers;
        const expected = await collect(store.readAll({ after: start, filter }));
        assert.equal(expected.length, 30 + 40 + 1);
        assert.deepEqual(ids(received), ids(expected), 'every event once, in position order');
        assertIncreasing(received);

        // A duplicate delivered late would come before this next event.
        const next = randomUUID();
        const more = take(subscription, (e) => e.id === next);
        await store.append(p.stream('end'), [ev(p, next)]);
        assert.deepEqual(ids(await more), [next]);
        await subscription.close();
      });

      test('delivers only events after the given position, unfiltered', async ({ store }, p) => {
        const r1 = await store.append(p.stream('a'), [ev(p), ev(p)]);
        await store.append(p.stream('a'), [ev(p)]);
        const subscription = store.subscribeToAll({ after: r1.position });
        const sentinel = randomUUID();
        const live = take(subscription, (e) => e.id === sentinel);
        await store.append(p.stream('b'), [ev(p, sentinel)]);
        const ours = (await live).filter((e) => e.stream.startsWith(p.streams));
        assert.deepEqual(
          ours.map((e) => [e.stream, e.revision]),
          [
            [p.stream('a'), 2],
            [p.stream('b'), 0],
          ],
        );
        assert.ok((await live).every((e) => e.position > r1.position));
        await subscription.close();
      });

      test('a filtered live subscription skips non-matching events', async ({ store }, p) => {
        const subscription = store.subscribeToAll({
          after: await store.headPosition(),
          filter: { eventTypePrefixes: [p.type('Keep')] },
        });
        const sentinel = randomUUID();
        const live = take(subscription, (e) => e.id === sentinel);
        await store.append(p.stream('a'), [
          ev(p, undefined, 1, 'Drop'),
          ev(p, undefined, 2, 'Keep'),
          ev(p, undefined, 3, 'Drop'),
        ]);
        await store.append(p.stream('b'), [ev(p, undefined, 4, 'Drop')]);
        await store.append(p.stream('c'), [ev(p, sentinel, 5, 'Keep')]);
        assert.deepEqual(
          (await live).map((e) => e.data),
          [2, 5],
        );
        await subscription.close();
      });

      test('with checkpoints, the checkpoint passes the events the filter rejects, and never runs ahead', async ({
        store,
      }, p) => {
        const subscription = store.subscribeToAll({
          after: await store.headPosition(),
          filter: { eventTypePrefixes: [p.type('Keep')] },
          checkpoints: true,
        });
        const kept = randomUUID();
        const first = take(subscription, (e) => e.id === kept);
        await store.append(p.stream('a'), [ev(p, kept, 1, 'Keep')]);
        const [keptEvent] = await first;
        const dropped = await store.append(p.stream('b'), [ev(p, undefined, 2, 'Drop'), ev(p, undefined, 3, 'Drop')]);
        assert.ok(subscription.checkpoint >= keptEvent!.position);
        // Waiting with nothing at hand: the rejected events count as passed.
        const iterator = subscription[Symbol.asyncIterator]();
        const next = iterator.next();
        await until(() => subscription.checkpoint >= dropped.position, 'the checkpoint to pass the rejected events');
        const sentinel = randomUUID();
        const sentinelAppend = await store.append(p.stream('c'), [ev(p, sentinel, 4, 'Keep')]);
        const delivered = await withTimeout(next, 10_000, 'the next kept event');
        assert.equal(delivered.done, false);
        assert.equal(delivered.value.id, sentinel, 'nothing rejected was delivered');
        assert.ok(subscription.checkpoint <= (await store.headPosition()));
        assert.ok(subscription.checkpoint >= sentinelAppend.position);
        await subscription.close();
      });

      test('close() ends the iteration of a waiting subscription', async ({ store }, p) => {
        const subscription = store.subscribeToAll({
          after: await store.headPosition(),
          filter: { streamPrefixes: [p.streams] },
        });
        const received: RecordedEvent[] = [];
        const loop = (async () => {
          for await (const e of subscription) received.push(e);
        })();
        await store.append(p.stream('a'), [ev(p)]);
        await until(() => received.length === 1, 'the live event');
        await subscription.close();
        await withTimeout(loop, 5000, 'the for-await loop to end after close()');
        assert.equal(received.length, 1);
      });
    });

    describe('lifecycle', () => {
      test('streamRevision, headPosition and ping', async ({ store }, p) => {
        await store.ping();
        assert.equal(await store.streamRevision(p.stream('a')), null);
        const result = await store.append(p.stream('a'), [ev(p), ev(p)]);
        assert.equal(await store.streamRevision(p.stream('a')), 1);
        assert.ok((await store.headPosition()) >= result.position);
      });

      test('reopening the store after close finds every event', async (fixture, p, t) => {
        if (!fixture.reopen) return t.skip('the adapter gives no reopen()');
        const { store } = fixture;
        const written = [];
        for (let i = 0; i < 5; i++)
          written.push(await store.append(p.stream(`s${i % 2}`), [ev(p, undefined, { i }), ev(p)]));
        const before = await collect(store.readAll({ after: 0, filter: { streamPrefixes: [p.streams] } }));
        await store.close();
        await assert.rejects(store.append(p.stream('s0'), [ev(p)]), 'a closed store refuses appends');

        const reopened = await fixture.reopen();
        const after = await collect(reopened.readAll({ after: 0, filter: { streamPrefixes: [p.streams] } }));
        assert.deepEqual(after, before);
        assert.equal(await reopened.streamRevision(p.stream('s0')), 5);
        assert.ok((await reopened.headPosition()) >= written.at(-1)!.position);
        const next = await reopened.append(p.stream('s0'), [ev(p)], 5);
        assert.equal(next.nextExpectedRevision, 6);
        assert.ok(next.position > written.at(-1)!.position, 'positions keep growing across a reopen');
        await reopened.close();
      });
    });
  });
}

// --- helpers -----------------------------------------------------------------------------------

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Prefixes {
  /** Prefix of every stream of this test. */
  streams: string;
  stream(name: string): string;
  type(name: string): string;
}

function prefixes(): Prefixes {
  const tag = randomUUID().replace(/-/g, '').slice(0, 12);
  return { streams: `ct${tag}-`, stream: (name) => `ct${tag}-${name}`, type: (name) => `Ct${tag}${name}` };
}

function ev(p: Prefixes, id?: string, data: unknown = { at: Date.now() }, type = 'Happened') {
  return id === undefined ? { type: p.type(type), data } : { id, type: p.type(type), data };
}

function ids(events: RecordedEvent[]): string[] {
  return events.map((e) => e.id);
}

async function collect(iterable: AsyncIterable<RecordedEvent>): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of iterable) out.push(e);
  return out;
}

function assertIncreasing(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i - 1]!.position < events[i]!.position, `positions strictly increase at ${i}`);
  }
  assert.equal(new Set(ids(events)).size, events.length, 'no event twice');
}

async function assertConflict(
  promise: Promise<unknown>,
  stream: string,
  expected: ExpectedRevision,
  actual: number | null,
) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof WrongExpectedRevisionError, `expected WrongExpectedRevisionError, got ${String(error)}`);
    assert.equal(error.stream, stream);
    assert.equal(error.expected, expected);
    assert.equal(error.actual, actual);
    return true;
  });
}

/**
 * Reads from a subscription until `done` holds for an event (then stops reading but leaves
 * the subscription open); fails after a bounded time.
 */
async function take(
  subscription: AllSubscription,
  done: (e: RecordedEvent) => boolean,
  onEvent?: (e: RecordedEvent) => void,
  timeoutMs = 10_000,
): Promise<RecordedEvent[]> {
  const received: RecordedEvent[] = [];
  const iterator = subscription[Symbol.asyncIterator]();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const next = await withTimeout(
      iterator.next(),
      deadline - Date.now(),
      `an event from the subscription (got ${received.length})`,
    );
    if (next.done) throw new Error(`the subscription ended after ${received.length} events`);
    received.push(next.value);
    onEvent?.(next.value);
    if (done(next.value)) return received;
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after waiting for ${what}`)), Math.max(0, ms));
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function until(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
