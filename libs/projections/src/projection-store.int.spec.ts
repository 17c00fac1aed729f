import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ProjectionRunner, generationCollection, type ProjectionRunnerOptions } from '#projections';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

/**
 * The read cache of ProjectionStore: reads of a projection this process runs are answered from
 * memory until the projection's next commit, and never for a projection run elsewhere.
 * "Behind the cache's back" below means a write straight into the document store, which no
 * projection commit reports: a cached read keeps its answer, an uncached one sees the write.
 */
describe('ProjectionStore read cache', () => {
  let dir: string;
  let path: string;
  let closers: Array<() => Promise<void>>;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'projection-cache-'));
    path = join(dir, 'svc.sqlite');
    closers = [];
  });
  afterEach(async () => {
    for (const close of closers) await close();
    await rm(dir, { recursive: true, force: true });
  });

  function open(options: Partial<ProjectionRunnerOptions> = {}) {
    const events = new SqliteEventStore({ path, pollIntervalMs: 10 });
    const documents = new SqliteDocumentStore({ path });
    const runner = new ProjectionRunner({
      eventStore: events,
      documentStore: documents,
      projections: [streamCounterProjection()],
      retry: { initialMs: 5, maxMs: 50 },
      idleCheckMs: 50,
      generationCacheMs: 0,
      ...options,
    });
    closers.push(async () => {
      await runner.stop();
      await documents.close();
      await events.close();
    });
    const streams = () =>
      runner.store.collection<{ id: string; count: number }>('stream_counter', 'stream_counter_streams');
    const behindTheCache = (id: string, count: number) =>
      documents.collection(generationCollection('stream_counter_streams', 1)).upsert({ id, count, last_revision: 0 });
    const count = () => events.append('counter-a', [{ type: 'Counted', data: {} }]);
    return { events, documents, runner, streams, behindTheCache, count };
  }

  it('answers from memory until the next commit; a read-your-writes wait never meets an answer from before its write', async () => {
    const { runner, streams, behindTheCache, count } = open();
    await runner.start();
    await runner.waitFor((await count()).position);
    assert.equal((await streams().get('counter-a'))?.count, 1);
    assert.deepEqual(
      (await streams().find({}, { sort: [['id', 1]] })).items.map((d) => d.count),
      [1],
    );

    await behindTheCache('counter-a', 99);
    assert.equal((await streams().get('counter-a'))?.count, 1, 'get is cached');
    assert.deepEqual(
      (await streams().find({}, { sort: [['id', 1]] })).items.map((d) => d.count),
      [1],
      'find is cached',
    );
    assert.equal(await streams().count(), 1);

    for (let i = 2; i <= 4; i++) {
      await runner.waitFor((await count()).position);
      // The commit dropped the cache: the projection's answer (99 + 1), read from the store.
      assert.equal((await streams().get('counter-a'))?.count, 98 + i);
    }
  });

  it('does not cache a projection this process does not run, nor with readCacheDocuments 0', async () => {
    // Another process's projection: its commits are invisible here, so every read goes to the store.
    const writer = open();
    await writer.runner.start();
    await writer.runner.waitFor((await writer.count()).position);
    const reader = open();
    assert.equal((await reader.streams().get('counter-a'))?.count, 1);
    await writer.behindTheCache('counter-a', 7);
    assert.equal((await reader.streams().get('counter-a'))?.count, 7);

    await writer.runner.stop();
    const off = open({ readCacheDocuments: 0 });
    await off.runner.start();
    await off.runner.waitFor((await off.count()).position);
    assert.equal((await off.streams().get('counter-a'))?.count, 8);
    await off.behindTheCache('counter-a', 70);
    assert.equal((await off.streams().get('counter-a'))?.count, 70);
  });

  it('a read under way when a commit lands is answered but not kept', async () => {
    const { runner, documents, streams, behindTheCache, count } = open();
    await runner.start();
    await runner.waitFor((await count()).position);
    // Hold the next read of the streams collection inside the document store until a commit has landed.
    const physical = documents.collection(generationCollection('stream_counter_streams', 1));
    const original = physical.get.bind(physical);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    // One call only: the projection's own reads go through the same handle.
    physical.get = async (id: string) => {
      physical.get = original;
      const doc = await original(id);
      await gate;
      return doc;
    };
    const inFlight = streams().get('counter-a');
    const committed = runner.waitFor((await count()).position);
    await committed;
    release();
    assert.equal((await inFlight)?.count, 1, 'the read answers what it read');
    await behindTheCache('counter-a', 50);
    assert.equal((await streams().get('counter-a'))?.count, 50, 'and was not cached: the next read goes to the store');
  });

  it('holds at most readCacheDocuments documents: an answer counts its documents, the oldest go first', async () => {
    const { runner, streams, behindTheCache, events } = open({ readCacheDocuments: 3 });
    await runner.start();
    await events.append('counter-a', [{ type: 'Counted', data: {} }]);
    await runner.waitFor((await events.append('counter-b', [{ type: 'Counted', data: {} }])).position);
    const counts = async () => (await streams().find({}, { sort: [['id', 1]] })).items.map((d) => d.count);
    assert.equal((await streams().get('counter-a'))?.count, 1); // holds 1
    assert.equal((await streams().get('counter-b'))?.count, 1); // holds 2
    assert.deepEqual(await counts(), [1, 1]); // 2 more: 4 > 3, the get of counter-a goes
    await behindTheCache('counter-a', 10);
    await behindTheCache('counter-b', 20);
    assert.equal((await streams().get('counter-b'))?.count, 1, 'still held');
    assert.deepEqual(await counts(), [1, 1], 'still held');
    assert.equal((await streams().get('counter-a'))?.count, 10, 'pushed out: read again (and now counter-b goes)');
    assert.equal((await streams().get('counter-b'))?.count, 20);
  });

  it('answers are frozen: one reader cannot change what the next one gets', async () => {
    const { runner, streams, count } = open();
    await runner.start();
    await runner.waitFor((await count()).position);
    const doc = (await streams().get('counter-a'))!;
    assert.throws(() => {
      (doc as { count: number }).count = 5;
    }, TypeError);
    const page = await streams().find({});
    assert.throws(() => page.items.push({ id: 'x', count: 0 }), TypeError);
    assert.equal((await streams().get('counter-a'))?.count, 1);
  });

  it('stopping the projection stops the caching', async () => {
    const { runner, streams, behindTheCache, count } = open();
    await runner.start();
    await runner.waitFor((await count()).position);
    assert.equal((await streams().get('counter-a'))?.count, 1);
    await runner.stop();
    await behindTheCache('counter-a', 3);
    assert.equal((await streams().get('counter-a'))?.count, 3);
  });
});
