// Rebuilds into a new generation: equal to the incremental result, switched without going back.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { type DocumentStore } from '#documents';
import { generationCollection } from '#projections';
import { openRunnerEnv, type RunnerEnv, until } from './testing/runner-env.js';
import { streamCounterProjection } from './testing/stream-counter.projection.js';

describe('ProjectionRunner (embedded SQLite): rebuilds and generations', () => {
  let env: RunnerEnv;

  beforeEach(async () => {
    env = await openRunnerEnv();
  });

  afterEach(() => env.close());

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
});
