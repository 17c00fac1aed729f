import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import { DeliveryLauncher, type LauncherOptions } from './delivery.launcher.js';

const doc = (id: string, target: string, revision = 0): DeliveryDoc =>
  ({ id, target, owner_id: 'acct_1', revision }) as DeliveryDoc;

/** A launcher whose runs end when the test says so. */
function launcher(options: Partial<LauncherOptions> = {}) {
  const runs = new Map<string, { releaseHost: () => void; end: () => void }>();
  const events: string[] = [];
  const l = new DeliveryLauncher({
    concurrency: 10,
    perHost: 1,
    perOwner: 10,
    maxQueued: 10,
    maxQueuedPerHost: 10,
    run: (d, releaseHost) =>
      new Promise<void>((resolve) => {
        runs.set(d.id, { releaseHost, end: resolve });
      }),
    isStopping: () => false,
    settled: () => events.push('settled'),
    failed: (d, error) => events.push(`failed ${d.id}: ${String(error)}`),
    ...options,
  });
  return { l, runs, events };
}

describe('delivery launcher', () => {
  it('starts one per host in turn within the per-host limit; a freed host slot starts the next at once', () => {
    const { l, runs } = launcher();
    for (const d of [doc('d1', 'slow'), doc('d2', 'slow'), doc('d3', 'fast')]) assert.equal(l.sink.enqueue(d), 'added');
    l.pump();
    assert.deepEqual([...runs.keys()], ['d1', 'd3']);
    assert.equal(l.running, 2);
    assert.equal(l.queued, 1);
    runs.get('d1')!.releaseHost();
    assert.deepEqual([...runs.keys()], ['d1', 'd3', 'd2'], 'the HTTP exchange is over: the host takes the next');
  });

  it('holds the global limit, and knows a delivery in flight or queued', async () => {
    const { l, runs, events } = launcher({ concurrency: 1, perHost: 5 });
    l.sink.enqueue(doc('d1', 'h'));
    l.sink.enqueue(doc('d2', 'h'));
    l.pump();
    assert.deepEqual([...runs.keys()], ['d1']);
    assert.equal(l.sink.enqueue(doc('d1', 'h')), 'known');
    assert.equal(l.sink.enqueue(doc('d2', 'h')), 'known');
    assert.equal(l.isInFlight('d1'), true);
    runs.get('d1')!.end();
    await l.settle();
    assert.deepEqual([...runs.keys()], ['d1', 'd2']);
    assert.equal(l.isInFlight('d1'), false);
    assert.deepEqual(events, ['settled']);
  });

  it('refuses a document older than the revision it recorded, until the read model shows that revision', () => {
    const { l } = launcher();
    l.noteRecorded('d1', 3);
    assert.equal(l.sink.enqueue(doc('d1', 'h', 2)), 'stale');
    assert.equal(l.sink.enqueue(doc('d1', 'h', 3)), 'added');
    l.noteRecorded('d2', 5);
    l.prune(performance.now() + 60_001);
    assert.equal(l.sink.enqueue(doc('d2', 'h', 1)), 'added', 'forgotten after a minute');
  });

  it('reports a run that threw and frees its slots; starts nothing once stopping', async () => {
    let stopping = false;
    const { l, events } = launcher({
      run: (d) => Promise.reject(new Error(`boom ${d.id}`)),
      isStopping: () => stopping,
    });
    l.sink.enqueue(doc('d1', 'h'));
    l.pump();
    await l.settle();
    assert.deepEqual(events, ['failed d1: Error: boom d1', 'settled']);
    assert.equal(l.running, 0);
    stopping = true;
    l.sink.enqueue(doc('d2', 'h'));
    l.pump();
    assert.equal(l.running, 0);
    assert.equal(l.sink.room(), 9);
  });
});
