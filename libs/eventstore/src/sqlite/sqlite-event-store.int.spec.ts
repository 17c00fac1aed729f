import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '#eventstore';
import { eventStoreContract } from '#eventstore/testing';

async function tempStore(): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'es-sqlite-'));
  return { dir, path: join(dir, 'svc.sqlite') };
}

eventStoreContract('sqlite', async () => {
  const { dir, path } = await tempStore();
  const opened: EventStore[] = [new SqliteEventStore({ path })];
  return {
    store: opened[0]!,
    reopen: async () => {
      const store = new SqliteEventStore({ path });
      opened.push(store);
      return store;
    },
    cleanup: async () => {
      for (const store of opened) await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('SqliteEventStore specifics', () => {
  let dir: string;
  let path: string;
  const stores: EventStore[] = [];
  const open = (pollIntervalMs?: number) => {
    const store = new SqliteEventStore({ path, pollIntervalMs });
    stores.push(store);
    return store;
  };
  before(async () => ({ dir, path } = await tempStore()));
  after(async () => {
    for (const store of stores) await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('a long stream read lets the event loop run between pages (a grown stream slows only its reader)', async () => {
    const store = open();
    for (let i = 0; i < 5; i++) {
      await store.append(
        'long-1',
        Array.from({ length: 1000 }, (_, j) => ({ type: 'Noted', data: { n: i * 1000 + j } })),
      );
    }
    // Scheduled before the read: it runs while the read goes on only if the read yields.
    let ranAt = -1;
    let read = 0;
    setImmediate(() => (ranAt = read));
    for await (const _ of store.readStream('long-1')) read++;
    assert.equal(read, 5000);
    assert.ok(ranAt >= 0 && ranAt < 5000, `the other work ran after ${ranAt} of 5000 events`);
    ranAt = -1;
    read = 0;
    setImmediate(() => (ranAt = read));
    for await (const _ of store.readAll({ filter: { streamPrefixes: ['long-'] } })) read++;
    assert.ok(ranAt >= 0 && ranAt < read, `readAll: the other work ran after ${ranAt} of ${read} events`);
  });

  it('a failing append in a group commit fails alone, and a multi-event append is all-or-nothing', async () => {
    const store = open();
    await store.append('g-a', [{ type: 'T', data: 1 }], 'no_stream');
    // Issued in the same tick: one transaction.
    const results = await Promise.allSettled([
      store.append('g-a', [{ type: 'T', data: 2 }], 0),
      store.append(
        'g-a',
        [
          { type: 'T', data: 'lost' },
          { type: 'T', data: 'lost' },
        ],
        0,
      ),
      store.append(
        'g-b',
        [
          { type: 'T', data: 3 },
          { type: 'T', data: 4 },
        ],
        'no_stream',
      ),
      store.append('g-a', [{ type: 'T', data: 5 }], 1),
    ]);
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    );
    assert.ok((results[1] as PromiseRejectedResult).reason instanceof WrongExpectedRevisionError);
    const data = async (stream: string) => (await collect(store.readStream(stream))).map((e) => e.data);
    assert.deepEqual(
      await data('g-a'),
      [1, 2, 5],
      'appends to one stream apply in arrival order; the loser wrote nothing',
    );
    assert.deepEqual(await data('g-b'), [3, 4]);
  });

  it('an event id used in another stream is refused, without harming the batch', async () => {
    const store = open();
    const id = '6f1c1c52-6a8e-4a53-9d55-2f3f6c0f0a11';
    await store.append('dup-a', [{ id, type: 'T', data: 1 }]);
    const [reuse, other] = await Promise.allSettled([
      store.append('dup-b', [
        { id: '0b9f8d4e-7a43-4c3b-8f7e-1d2c3b4a5f60', type: 'T', data: 1 },
        { id, type: 'T', data: 2 },
      ]),
      store.append('dup-c', [{ type: 'T', data: 3 }]),
    ]);
    assert.equal(reuse.status, 'rejected');
    assert.match(String((reuse as PromiseRejectedResult).reason), /already used by dup-a@0/);
    assert.equal(other.status, 'fulfilled');
    assert.equal(await store.streamRevision('dup-b'), null);
  });

  it('close() writes the appends still queued before closing', async () => {
    const store = open();
    const pending = store.append('close-a', [
      { type: 'T', data: 1 },
      { type: 'T', data: 2 },
    ]);
    await store.close();
    assert.equal((await pending).nextExpectedRevision, 1);
    const reopened = open();
    assert.equal(await reopened.streamRevision('close-a'), 1);
  });

  it('a subscription sees events committed through another connection (another process) by polling', async () => {
    const reader = open(20);
    const writer = open();
    const start = await reader.headPosition();
    const subscription = reader.subscribeToAll({ after: start, filter: { streamPrefixes: ['xproc-'] } });
    const received: RecordedEvent[] = [];
    const loop = (async () => {
      for await (const e of subscription) {
        received.push(e);
        if (received.length === 3) break;
      }
    })();
    await writer.append('xproc-1', [
      { type: 'T', data: 1 },
      { type: 'T', data: 2 },
    ]);
    await writer.append('xproc-2', [{ type: 'T', data: 3 }]);
    await Promise.race([
      loop,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error('no live event from the other connection within 5 s')), 5000).unref(),
      ),
    ]);
    assert.deepEqual(
      received.map((e) => e.data),
      [1, 2, 3],
    );
  });

  it('a live subscription gets every event once, in position order, while two connections interleave commits', async () => {
    const mine = open(5);
    const other = open();
    const start = await mine.headPosition();
    const all = mine.subscribeToAll({ after: start });
    const filtered = mine.subscribeToAll({ after: start, filter: { eventTypePrefixes: ['Kept'] } });
    // Read only once everything is written: it walks the remembered commits across the gaps.
    const lagging = mine.subscribeToAll({ after: start });
    const take = async (subscription: AsyncIterable<RecordedEvent>, count: number) => {
      const out: RecordedEvent[] = [];
      for await (const e of subscription) {
        out.push(e);
        if (out.length === count) break;
      }
      return out;
    };
    const received = Promise.all([take(all, 40), take(filtered, 20)]);
    for (let i = 0; i < 10; i++) {
      // Own commits (served from memory) and another connection's (read from the file) in turn,
      // some of them in one group commit.
      await Promise.all([
        mine.append(`tail-${i}`, [{ type: 'Kept', data: `m${i}` }]),
        mine.append(`tail-x${i}`, [{ type: 'Dropped', data: `d${i}` }]),
      ]);
      await other.append(`tail-o${i}`, [
        { type: 'Kept', data: `o${i}` },
        { type: 'Dropped', data: `od${i}` },
      ]);
    }
    const [events, kept, late] = await Promise.race([
      received.then(async ([a, b]) => [a, b, await take(lagging, 40)] as const),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('subscriptions did not get every event within 5 s')), 5000).unref(),
      ),
    ]);
    const expected = await collect(mine.readAll({ after: start }));
    assert.deepEqual(events, expected, 'exactly what the file holds, in order');
    assert.deepEqual(
      kept,
      expected.filter((e) => e.type === 'Kept'),
    );
    assert.deepEqual(late, expected);
  });

  it('a subscription that reads its own last commit from memory still gets what another process committed after it', async () => {
    const mine = open(5);
    const other = open();
    const start = await mine.headPosition();
    const subscription = mine.subscribeToAll({ after: start });
    await mine.append('after-tail-1', [{ type: 'T', data: 'mine' }]);
    await other.append('after-tail-2', [{ type: 'T', data: 'other' }]);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the poller has seen it; nobody reads yet
    const received: unknown[] = [];
    const loop = (async () => {
      for await (const e of subscription) {
        received.push(e.data);
        if (received.length === 2) break;
      }
    })();
    await Promise.race([
      loop,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`got ${JSON.stringify(received)} only`)), 10_000).unref(),
      ),
    ]);
    assert.deepEqual(received, ['mine', 'other']);
  });
});

async function collect(iterable: AsyncIterable<RecordedEvent>): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of iterable) out.push(e);
  return out;
}
