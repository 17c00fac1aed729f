// Over 400 lines on purpose: the runner's integration cases (exactly once, rebuilds, crashes,
// generations) share one set of fixtures and helpers.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore, type Doc, type DocumentStore } from '#documents';
import { SqliteEventStore, type EventStore } from '#eventstore';
import {
  ProjectionRunner,
  ProjectionTimeoutError,
  generationCollection,
  type ProjectionDefinition,
  type ProjectionRunnerOptions,
} from '#projections';
import { NonAtomicDocumentStore } from './testing/non-atomic-document-store.js';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

/** Polls a condition (no fixed sleeps); fails with the last value after `timeoutMs`. */
async function until<T>(
  what: string,
  probe: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

interface Env {
  path: string;
  events(): EventStore;
  docs(): SqliteDocumentStore;
  runner(options: Partial<ProjectionRunnerOptions> & { projections: ProjectionDefinition[] }): ProjectionRunner;
  /** Appends `perStream` Counted events to each of `streams` streams, concurrently; returns the last position. */
  seed(streams: number, perStream: number, prefix?: string): Promise<number>;
  /** Counts per stream computed from the event log itself (Counted events, Removed deletes). */
  truth(): Promise<Map<string, number>>;
  /** Stream documents of the active generation, as id → count. */
  counts(runner: ProjectionRunner, name?: string): Promise<Map<string, number>>;
  total(runner: ProjectionRunner, name?: string): Promise<number>;
  all(runner: ProjectionRunner, name: string, logical: string): Promise<Doc[]>;
}

describe('ProjectionRunner (embedded SQLite)', () => {
  let dir: string;
  let closers: Array<() => Promise<void>>;
  let env: Env;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'projections-'));
    const path = join(dir, 'svc.sqlite');
    closers = [];
    let seedStore: EventStore | null = null;
    env = {
      path,
      events() {
        const s = new SqliteEventStore({ path, pollIntervalMs: 10 });
        closers.push(() => s.close());
        return s;
      },
      docs() {
        const s = new SqliteDocumentStore({ path });
        closers.push(() => s.close());
        return s;
      },
      runner(options) {
        const runner = new ProjectionRunner({
          eventStore: options.eventStore ?? env.events(),
          documentStore: options.documentStore ?? env.docs(),
          retry: { initialMs: 5, maxMs: 50 },
          idleCheckMs: 50,
          generationCacheMs: 0,
          ...options,
        });
        closers.unshift(() => runner.stop());
        return runner;
      },
      async seed(streams, perStream, prefix = 'counter') {
        seedStore ??= env.events();
        const store = seedStore;
        let last = 0;
        await Promise.all(
          Array.from({ length: streams }, async (_, s) => {
            for (let done = 0; done < perStream;) {
              const n = Math.min(25, perStream - done);
              const r = await store.append(
                `${prefix}-${s}`,
                Array.from({ length: n }, (_, i) => ({ type: 'Counted', data: { i: done + i } })),
              );
              last = Math.max(last, r.position);
              done += n;
            }
          }),
        );
        return last;
      },
      async truth() {
        seedStore ??= env.events();
        const counts = new Map<string, number>();
        for await (const e of seedStore.readAll()) {
          if (e.type === 'Counted') counts.set(e.stream, (counts.get(e.stream) ?? 0) + 1);
          if (e.type === 'Removed') counts.delete(e.stream);
        }
        return counts;
      },
      async all(runner, name, logical) {
        const col = runner.store.collection(name, logical);
        const out: Doc[] = [];
        let after: string | undefined;
        do {
          const page = await col.find({}, { limit: 1000, ...(after ? { after } : {}) });
          out.push(...page.items);
          after = page.nextCursor ?? undefined;
        } while (after);
        return out;
      },
      async counts(runner, name = 'stream_counter') {
        return new Map((await env.all(runner, name, `${name}_streams`)).map((d) => [d.id, d.count as number]));
      },
      async total(runner, name = 'stream_counter') {
        return ((await runner.store.collection(name, `${name}_totals`).get('all'))?.count as number | undefined) ?? 0;
      },
    };
  });

  afterEach(async () => {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  });

  const totalEvents = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

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

  it('exactly once across a crash: a child killed with SIGKILL mid-run, then a restart', async () => {
    await env.seed(20, 150);
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./testing/projection-crash.child.js', import.meta.url)), env.path, '5'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = new Promise((resolve) => child.on('exit', resolve));
    let commits = 0;
    // Kill it after some committed batches, while it is busy with the next ones.
    await new Promise<void>((resolve, reject) => {
      child.on('exit', () => reject(new Error('the child exited before it was killed')));
      child.stdout!.on('data', (chunk: Buffer) => {
        commits += chunk
          .toString()
          .split('\n')
          .filter((l) => l.startsWith('committed')).length;
        if (commits >= 12) resolve();
      });
    });
    child.kill('SIGKILL');
    await exited;
    const runner = env.runner({ projections: [streamCounterProjection()], batchSize: 40 });
    const before = await runner.store.active('stream_counter');
    assert.ok(
      before && before.position > 0 && before.position < 3000,
      `the child stopped part-way (at ${before?.position})`,
    );
    await runner.start();
    await runner.waitFor(await env.events().headPosition(), { timeoutMs: 20_000 });
    const truth = await env.truth();
    assert.deepEqual(await env.counts(runner), truth);
    assert.equal(await env.total(runner), 3000);
  });

  it('exactly once when a failure strikes right after a commit: the retry resumes from the checkpoint', async () => {
    await env.seed(10, 100);
    let batches = 0;
    let failed = false;
    const runner: ProjectionRunner = env.runner({
      projections: [streamCounterProjection()],
      batchSize: 30,
      onCommit: async ({ events }) => {
        if (events > 0 && ++batches === 5 && !failed) {
          failed = true;
          throw new Error('injected failure after batch 5');
        }
      },
    });
    await runner.start();
    await until('the failure to happen', () => failed, Boolean);
    await runner.waitFor(1000, { timeoutMs: 10_000 });
    assert.deepEqual(await env.counts(runner), await env.truth());
    assert.equal(await env.total(runner), 1000);
  });

  it('applied twice changes nothing: at-least-once commits (MongoDB-style, op by op), crashes between writes and checkpoint', async () => {
    await env.seed(6, 80);
    const inner = env.docs();
    // Several process lives, each with another batch size (so a replay's batches end elsewhere
    // than the crashed ones) and each dying part-way through a batch: some writes landed, the
    // checkpoint did not. The last one runs to the end.
    const sizes = [25, 40, 7, 60, 13, 500];
    let runner!: ProjectionRunner;
    let crashes = 0;
    for (const [life, batchSize] of sizes.entries()) {
      const final = life === sizes.length - 1;
      const store = new NonAtomicDocumentStore(
        inner,
        (call, ops) => (!final && ops.length > 2 && call >= 3 ? 1 + (life % (ops.length - 1)) : null),
        { dieOnCrash: true },
      );
      runner = env.runner({ projections: [streamCounterProjection()], documentStore: store, batchSize });
      await runner.start();
      if (final) break;
      await until(
        `life ${life} to crash`,
        () => store.crashes,
        (n) => n === 1,
      );
      await runner.stop();
      crashes++;
      const checkpoint = await runner.store.active('stream_counter');
      assert.ok(checkpoint!.position < 480, `life ${life} died before the end (at ${checkpoint!.position})`);
    }
    assert.equal(crashes, 5);
    await runner.waitFor(480, { timeoutMs: 10_000 });
    assert.deepEqual(await env.counts(runner), await env.truth());
    assert.equal(await env.total(runner), 480);
    const store = new NonAtomicDocumentStore(inner);

    // And a plain replay of everything over the finished documents: nothing changes.
    const docsBefore = await env.all(runner, 'stream_counter', 'stream_counter_streams');
    await runner.stop();
    await store.applyBatch([
      {
        kind: 'cas',
        collection: '_projections',
        doc: { ...(await runner.store.active('stream_counter'))!, position: 0 },
        expect: {},
      },
    ]);
    const replay = env.runner({ projections: [streamCounterProjection()], documentStore: store });
    await replay.start();
    await until(
      'the replay to pass every event',
      () => replay.store.active('stream_counter'),
      (a) => a?.position === 480,
    );
    assert.deepEqual(await env.all(replay, 'stream_counter', 'stream_counter_streams'), docsBefore);
    assert.equal(await env.total(replay), 480);
  });

  it('rebuild equals incremental, switches generation and drops generations before the previous one', async () => {
    const runner = env.runner({ projections: [streamCounterProjection()], batchSize: 17 });
    await runner.start();
    for (let round = 0; round < 4; round++) {
      await env.seed(5, 30, `r${round}`);
      await env.events().append(`r${round}-1`, [{ type: 'Removed', data: {} }]);
    }
    const head = await env.events().headPosition();
    await runner.waitFor(head);
    const incremental = await env.all(runner, 'stream_counter', 'stream_counter_streams');
    const incrementalTotal = await env.total(runner);
    assert.equal(incremental.length, 16);

    const [result] = await runner.rebuild('stream_counter');
    assert.equal(result!.generation, 2);
    assert.equal(result!.position, head);
    assert.equal(result!.events, head);
    assert.deepEqual(await env.all(runner, 'stream_counter', 'stream_counter_streams'), incremental);
    assert.equal(await env.total(runner), incrementalTotal);
    const names = await env.docs().listCollections();
    assert.ok(names.includes(generationCollection('stream_counter_streams', 2)));
    // The previous generation stays until the next switch: other processes may still read it.
    assert.ok(
      names.includes(generationCollection('stream_counter_streams', 1)),
      `previous generation kept: ${names.join(', ')}`,
    );
    const [again] = await runner.rebuild('stream_counter');
    assert.equal(again!.generation, 3);
    const after = await env.docs().listCollections();
    assert.ok(
      !after.includes(generationCollection('stream_counter_streams', 1)),
      `older generation dropped: ${after.join(', ')}`,
    );
    assert.ok(after.includes(generationCollection('stream_counter_streams', 2)));
    assert.deepEqual(await env.all(runner, 'stream_counter', 'stream_counter_streams'), incremental);

    // The live worker moved over to generation 3 and keeps counting there.
    const { position } = await env.events().append('r0-0', [{ type: 'Counted', data: {} }]);
    await runner.waitFor(position);
    assert.equal((await env.counts(runner)).get('r0-0'), 31);
    const [status] = await runner.status();
    assert.equal(status!.generation, 3);
  });

  it('a version bump rebuilds on start into a new generation; readers keep the old one until the switch', async () => {
    const v1 = env.runner({ projections: [streamCounterProjection()] });
    await v1.start();
    const head = await env.seed(4, 50);
    await v1.waitFor(head);
    await v1.stop();
    assert.equal((await env.all(v1, 'stream_counter', 'stream_counter_streams'))[0]!.tag, undefined);

    const v2 = env.runner({ projections: [streamCounterProjection({ version: 2, tag: 'v2' })] });
    await v2.start();
    await v2.waitFor(head, { timeoutMs: 10_000 });
    const docs = await env.all(v2, 'stream_counter', 'stream_counter_streams');
    assert.equal(docs.length, 4);
    assert.ok(docs.every((d) => d.tag === 'v2' && d.count === 50));
    const [status] = await until(
      'live status',
      () => v2.status(),
      (s) => s[0]!.state === 'live',
    );
    assert.equal(status!.version, 2);
    assert.equal(status!.generation, 2);
    // Generation 1 stays (readers in other processes may still resolve it) until the next switch.
    assert.ok((await env.docs().listCollections()).includes('stream_counter_streams__g1'));
  });

  it('two runners on one file (two connections each, as two processes) never double-apply', async () => {
    const a = env.runner({ projections: [streamCounterProjection()], batchSize: 7 });
    const b = env.runner({ projections: [streamCounterProjection()], batchSize: 11 });
    await Promise.all([a.start(), b.start()]);
    await Promise.all([env.seed(8, 60), env.seed(4, 30, 'more')]);
    const head = await env.events().headPosition();
    await until(
      'a checkpoint at the head',
      () => a.store.active('stream_counter'),
      (cp) => cp?.position === head,
      20_000,
    );
    const truth = await env.truth();
    assert.deepEqual(await env.counts(a), truth);
    assert.equal(await env.total(a), totalEvents(truth));
  });

  it('a rebuild by another runner (the CLI) is followed by the serving runner', async () => {
    const server = env.runner({ projections: [streamCounterProjection()] });
    await server.start();
    await server.waitFor(await env.seed(3, 20));
    const cli = env.runner({ projections: [streamCounterProjection()] });
    const [result] = await cli.rebuild();
    assert.equal(result!.generation, 2);
    await until(
      'the server to follow',
      () => server.status(),
      (s) => s[0]!.generation === 2,
    );
    const { position } = await env.events().append('counter-0', [{ type: 'Counted', data: {} }]);
    await server.waitFor(position);
    assert.equal((await env.counts(server)).get('counter-0'), 21);
    assert.equal((await server.status())[0]!.state, 'live');
  });

  it('a rebuild never switches behind the live generation: a live commit just before the switch is caught up first', async () => {
    // Found by `npm run chaos rebuild-while-serving`: the switch expected only the live
    // generation, so a live commit between the replay's end and the switch left readers on a
    // generation behind the one they had read (an acknowledged write gone, a list shrinking).
    const server = env.runner({ projections: [streamCounterProjection()] });
    await server.start();
    await server.waitFor(await env.seed(3, 20));
    const docs = env.docs();
    let raced: number | null = null;
    const switches: number[] = [];
    // The CLI's document store: right before its first switch, the server commits one more event.
    const cliDocs = new Proxy(docs, {
      get(target, prop, receiver) {
        if (prop !== 'applyBatch') return Reflect.get(target, prop, receiver) as unknown;
        return async (...[ops, options]: Parameters<DocumentStore['applyBatch']>) => {
          const switching = ops.find(
            (op) => op.kind === 'cas' && (op.doc as { kind?: string }).kind === 'active' && op.expect !== null,
          );
          if (switching && raced === null) {
            raced = (await env.events().append('counter-0', [{ type: 'Counted', data: {} }])).position;
            await server.waitFor(raced);
          }
          await target.applyBatch(ops, options);
          if (switching) switches.push((switching as unknown as { doc: { position: number } }).doc.position);
        };
      },
    });
    const cli = env.runner({ projections: [streamCounterProjection()], documentStore: cliDocs });
    const [result] = await cli.rebuild();
    assert.ok(raced !== null, 'the live commit happened before the switch');
    assert.equal(result!.generation, 2);
    assert.equal(switches.length, 1, 'one switch went through');
    assert.ok(switches[0]! >= raced, `the switch at position ${switches[0]} holds the live commit at ${raced}`);
    assert.equal((await env.counts(cli)).get('counter-0'), 21);
  });

  it('a failing handler: reported failed with its error, events before it committed, others unaffected, retried until it passes', async () => {
    let poisoned = true;
    const fragile: ProjectionDefinition = {
      name: 'fragile',
      version: 1,
      eventTypes: ['Counted'],
      collections: [{ name: 'fragile_seen' }],
      handle(event, ctx) {
        if (poisoned && event.data && (event.data as { poison?: boolean }).poison)
          throw new Error('cannot digest this');
        ctx.upsert('fragile_seen', { id: String(event.position) });
      },
    };
    const runner = env.runner({
      projections: [fragile, streamCounterProjection()],
      retry: { initialMs: 5, maxMs: 20 },
    });
    const events = env.events();
    await events.append('counter-p', [
      { type: 'Counted', data: {} },
      { type: 'Counted', data: {} },
      { type: 'Counted', data: { poison: true } },
      { type: 'Counted', data: {} },
    ]);
    await runner.start();
    await runner.waitFor(4, { projections: ['stream_counter'] });
    const failed = await until(
      'fragile failed',
      () => runner.status(),
      (s) => s[0]!.state === 'failed' && s[0]!.position === 2,
    );
    assert.match(
      failed[0]!.last_error ?? '',
      /fragile failed on Counted at position 3 \(stream counter-p\): cannot digest this/,
    );
    assert.equal(failed[1]!.state, 'live');
    assert.equal(
      await runner.store.collection('fragile', 'fragile_seen').count(),
      2,
      'the events before the poison one are committed',
    );
    poisoned = false;
    await runner.waitFor(4, { timeoutMs: 5000 });
    const [recovered] = await until(
      'fragile recovered',
      () => runner.status(),
      (s) => s[0]!.state === 'live',
    );
    assert.equal(recovered!.last_error, null);
    assert.equal(await runner.store.collection('fragile', 'fragile_seen').count(), 4);
  });

  it('stop lets the batch in progress commit, and a new runner continues from there', async () => {
    await env.seed(4, 100);
    let stopRequested: Promise<void> | null = null;
    const runner: ProjectionRunner = env.runner({
      projections: [streamCounterProjection()],
      batchSize: 20,
      onCommit: () => {
        stopRequested ??= runner.stop();
      },
    });
    await runner.start();
    await until(
      'stop requested',
      () => stopRequested,
      (p) => p !== null,
    );
    // Set by onCommit, which TypeScript's flow analysis cannot see.
    await (stopRequested as Promise<void> | null);
    const [status] = await runner.status();
    assert.equal(status!.state, 'stopped');
    const stored = await runner.store.active('stream_counter');
    assert.ok(stored!.position > 0 && stored!.position < 400, `stopped part-way at ${stored!.position}`);
    const next = env.runner({ projections: [streamCounterProjection()] });
    await next.start();
    await next.waitFor(400);
    assert.equal(await env.total(next), 400);
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
