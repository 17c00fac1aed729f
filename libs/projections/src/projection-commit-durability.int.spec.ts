import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore, type ApplyBatchOptions, type DocumentStore, type WriteOp } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ProjectionRunner, PROJECTIONS_COLLECTION } from '#projections';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

describe('Projection commits (ADR 0088)', () => {
  let dir: string;
  let closers: Array<() => Promise<void>>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'projection-commits-'));
    closers = [];
  });
  afterEach(async () => {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a batch and its checkpoint are committed as rebuildable (no fsync of their own); the events stay durable', async () => {
    const path = join(dir, 'svc.sqlite');
    const events = new SqliteEventStore({ path, pollIntervalMs: 10 });
    const docs = new SqliteDocumentStore({ path });
    closers.push(
      () => docs.close(),
      () => events.close(),
    );
    const commits: Array<{ ops: WriteOp[]; options: ApplyBatchOptions | undefined }> = [];
    const recording = new Proxy(docs, {
      get(target, prop, receiver) {
        if (prop !== 'applyBatch') return Reflect.get(target, prop, receiver) as unknown;
        return (ops: WriteOp[], options?: ApplyBatchOptions) => {
          commits.push({ ops, options });
          return target.applyBatch(ops, options);
        };
      },
    }) as DocumentStore;
    const runner = new ProjectionRunner({
      eventStore: events,
      documentStore: recording,
      projections: [streamCounterProjection()],
      retry: { initialMs: 5, maxMs: 50 },
      idleCheckMs: 50,
      generationCacheMs: 0,
    });
    closers.unshift(() => runner.stop());
    await runner.start();
    let last = 0;
    for (let i = 0; i < 5; i++) last = (await events.append(`counter-${i}`, [{ type: 'Counted', data: {} }])).position;
    await runner.waitFor(last);

    // The worker's batch commits: the handlers' writes, then one cas of the live checkpoint on
    // the position it started from (creating and switching generations are other writes).
    const batches = commits.filter(({ ops }) => {
      const checkpoints = ops.filter((op) => op.collection === PROJECTIONS_COLLECTION);
      const last = ops[ops.length - 1]!;
      return checkpoints.length === 1 && last.kind === 'cas' && last.doc.kind === 'active' && last.expect !== null;
    });
    const withWrites = batches.filter(({ ops }) => ops.length > 1);
    assert.ok(withWrites.length > 0, 'the projection committed batches with writes');
    for (const { options } of batches) assert.deepEqual(options, { rebuildable: true });
    assert.equal(
      (await runner.store.collection('stream_counter', 'stream_counter_streams').get('counter-4'))?.count,
      1,
    );
  });
});
