// A handler that throws: reported, isolated from the other projections, retried until it passes.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type ProjectionDefinition } from '#projections';
import { openRunnerEnv, type RunnerEnv, until } from './testing/runner-env.js';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

describe('ProjectionRunner (embedded SQLite): a failing handler', () => {
  let env: RunnerEnv;

  beforeEach(async () => {
    env = await openRunnerEnv();
  });

  afterEach(() => env.close());

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
});
