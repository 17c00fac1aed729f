// Each event applied once: a killed process, a failure after a commit, at-least-once commits
// applied twice, two runners on one file, a stop mid-batch.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ProjectionRunner } from '#projections';
import { NonAtomicDocumentStore } from './testing/non-atomic-document-store.js';
import { openRunnerEnv, type RunnerEnv, totalEvents, until } from './testing/runner-env.js';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

describe('ProjectionRunner (embedded SQLite): exactly once across crashes, retries and two runners', () => {
  let env: RunnerEnv;

  beforeEach(async () => {
    env = await openRunnerEnv();
  });

  afterEach(() => env.close());

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
});
