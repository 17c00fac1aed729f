// The runner's catch-up and live counting, waitFor, and the definitions it refuses. The other
// topics: projection-runner-exactly-once, -rebuilds, -failures (.int.spec.ts).
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type DocumentStore } from '#documents';
import { type EventStore } from '#eventstore';
import { ProjectionRunner, ProjectionTimeoutError, type ProjectionDefinition } from '#projections';
import { openRunnerEnv, type RunnerEnv, totalEvents, until } from './testing/runner-env.js';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

describe('ProjectionRunner (embedded SQLite): catch-up, waiting and definitions', () => {
  let env: RunnerEnv;

  beforeEach(async () => {
    env = await openRunnerEnv();
  });

  afterEach(() => env.close());

  it('counts every event exactly once through catch-up and live appends', async () => {
    await env.seed(7, 60);
    const runner = env.runner({ projections: [streamCounterProjection()], batchSize: 50 });
    await runner.start();
    const live = env.seed(5, 40, 'live');
    await live;
    const head = await env.events().headPosition();
    await runner.waitFor(head, { timeoutMs: 10_000 });
    const truth = await env.truth();
    assert.deepEqual(await env.counts(runner), truth);
    assert.equal(await env.total(runner), totalEvents(truth));
    const [status] = await until(
      'live status',
      () => runner.status(),
      (s) => s[0]!.state === 'live',
    );
    assert.deepEqual(
      { ...status!, last_error: status!.last_error },
      {
        name: 'stream_counter',
        version: 1,
        generation: 1,
        position: head,
        lag: 0,
        state: 'live',
        last_error: null,
        rebuilding: null,
        dead_letters: 0,
      },
    );
    const doc = await runner.store.collection('stream_counter', 'stream_counter_streams').get('counter-3');
    assert.equal(doc?.last_revision, 59);
    assert.equal(typeof doc?._position, 'number', 'documents carry the position of their last event');
  });

  it('events a projection ignores count as passed: waitFor resolves and the checkpoint moves past them', async () => {
    const runner = env.runner({ projections: [streamCounterProjection()] });
    await runner.start();
    const events = env.events();
    await events.append('counter-a', [{ type: 'Counted', data: {} }]);
    const { position } = await events.append('other-x', [
      { type: 'SomethingElse', data: {} },
      { type: 'Other', data: {} },
    ]);
    await runner.waitFor(position, { timeoutMs: 5000 });
    // The skipped progress is stored too (lazily, after idleCheckMs), for readers in other processes.
    await until(
      'stored checkpoint',
      () => runner.store.active('stream_counter'),
      (a) => a?.position === position,
    );
    const reader = env.runner({ projections: [streamCounterProjection()] });
    await reader.waitFor(position, { timeoutMs: 1000 });
    assert.deepEqual(await env.counts(runner), new Map([['counter-a', 1]]));
  });

  it('a projection waiting for its next event learns at once that ignored events passed (not only at the idle check)', async () => {
    // An idle check far beyond waitFor's timeout: only the subscription's onCheckpoint can wake it.
    const own = env.events(); // the runner's store: its commits reach the runner from memory
    const other = env.events(); // another connection: its commits are found by polling
    const runner = env.runner({ projections: [streamCounterProjection()], idleCheckMs: 60_000, eventStore: own });
    await runner.start();
    await own.append('counter-n', [{ type: 'Counted', data: {} }]);
    const fromHere = await own.append('ignored-a', [{ type: 'SomethingElse', data: {} }]);
    await runner.waitFor(fromHere.position, { timeoutMs: 5000 });
    const fromElsewhere = await other.append('ignored-b', [{ type: 'SomethingElse', data: {} }]);
    await runner.waitFor(fromElsewhere.position, { timeoutMs: 5000 });
    assert.deepEqual(await env.counts(runner), new Map([['counter-n', 1]]));
  });

  it('waitFor rejects with a clear timeout error when a projection is behind, then resolves once it passes', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const slow: ProjectionDefinition = {
      name: 'slow',
      version: 1,
      eventTypes: ['Counted'],
      collections: [{ name: 'slow_docs' }],
      async handle(event, ctx) {
        await gate;
        ctx.upsert('slow_docs', { id: event.stream });
      },
    };
    const runner = env.runner({ projections: [slow, streamCounterProjection()] });
    await runner.start();
    const { position } = await env.events().append('counter-1', [{ type: 'Counted', data: {} }]);
    await runner.waitFor(position, { projections: ['stream_counter'], timeoutMs: 5000 });
    await assert.rejects(runner.waitFor(position, { timeoutMs: 100 }), (error: unknown) => {
      assert.ok(error instanceof ProjectionTimeoutError);
      assert.match(error.message, /did not reach position \d+ within 100 ms: slow at 0/);
      assert.deepEqual(error.behind, [{ name: 'slow', position: 0 }]);
      return true;
    });
    const waiting = runner.waitFor(position, { timeoutMs: 5000 });
    release();
    await waiting;
    await assert.rejects(runner.waitFor(position, { projections: ['nope'] }), /Unknown projection nope/);
  });

  it('catchUpWithHead waits for what another connection appended, and says whether there was anything to wait for', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const counter = streamCounterProjection();
    const gated: ProjectionDefinition = {
      ...counter,
      async handle(event, ctx) {
        await gate;
        await counter.handle(event, ctx);
      },
    };
    const other = env.events(); // another process's appends: seen by polling only
    const runner = env.runner({ projections: [gated] });
    await runner.start();
    assert.equal(await runner.catchUpWithHead({ projections: ['stream_counter'], timeoutMs: 5000 }), false);
    await other.append('counter-x', [{ type: 'Counted', data: {} }]);
    let done = false;
    const waiting = runner
      .catchUpWithHead({ projections: ['stream_counter'], timeoutMs: 5000 })
      .finally(() => (done = true));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(done, false, 'still waiting while the projection is held');
    release();
    assert.equal(await waiting, true);
    assert.deepEqual(await env.counts(runner), new Map([['counter-x', 1]]), 'shown once it resolves');
    assert.equal(await runner.catchUpWithHead({ projections: ['stream_counter'], timeoutMs: 5000 }), false);
  });

  it('rejects bad definitions', () => {
    const base = streamCounterProjection();
    const make = (p: Partial<ProjectionDefinition>) => () =>
      new ProjectionRunner({
        eventStore: {} as EventStore,
        documentStore: {} as DocumentStore,
        projections: [{ ...base, ...p }],
      });
    assert.throws(make({ name: 'bad name' }), /Invalid projection name/);
    assert.throws(make({ version: 0 }), /version/);
    assert.throws(make({ collections: [{ name: 'x__g1' }] }), /invalid collection name/);
    assert.throws(
      () =>
        new ProjectionRunner({
          eventStore: {} as EventStore,
          documentStore: {} as DocumentStore,
          projections: [base, { ...base, name: 'other' }],
        }),
      /belongs to both/,
    );
  });
});
