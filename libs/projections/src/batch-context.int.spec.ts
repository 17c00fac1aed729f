import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SqliteDocumentStore, type Doc } from '#documents';
import type { RecordedEvent } from '#eventstore';
import { BatchContext } from './batch-context.js';

const event = (position: number): RecordedEvent => ({
  id: `e${position}`,
  stream: 's',
  revision: position,
  position,
  type: 'T',
  data: {},
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
});

describe('BatchContext: reads see the batch, writes wait for the commit', () => {
  let dir: string;
  let store: SqliteDocumentStore;
  const physical = new Map([
    ['items', 'items__g1'],
    ['other', 'other__g1'],
  ]);

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'batch-context-'));
    store = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('get sees pending upserts and deletes; nothing reaches the store before ops() are applied', async () => {
    await store.collection('items__g1').upsert({ id: 'a', n: 1 });
    const ctx = new BatchContext(store, 'p', physical);
    ctx.begin(event(10));
    ctx.upsert('items', { id: 'b', n: 2 });
    ctx.delete('items', 'a');
    assert.deepEqual(await ctx.get('items', 'b'), { id: 'b', n: 2, _position: 10 });
    assert.equal(await ctx.get('items', 'a'), null);
    assert.deepEqual(await store.collection('items__g1').get('a'), { id: 'a', n: 1 }, 'the store is untouched');
    assert.equal(await store.collection('items__g1').get('b'), null);
    const ops = ctx.ops();
    assert.deepEqual(ops, [
      { kind: 'upsert', collection: 'items__g1', doc: { id: 'b', n: 2, _position: 10 }, guardPosition: 10 },
      { kind: 'delete', collection: 'items__g1', id: 'a', guardPosition: 10 },
    ]);
    await store.applyBatch(ops);
    assert.deepEqual((await store.collection('items__g1').find()).items, [{ id: 'b', n: 2, _position: 10 }]);
  });

  it('get returns copies: a change not passed to upsert stays with the handler', async () => {
    await store.collection('items__g1').upsert({ id: 'a', n: 1, nested: { k: 1 } });
    const ctx = new BatchContext(store, 'p', physical);
    ctx.begin(event(5));
    const doc = (await ctx.get<Doc & { n: number; nested: { k: number } }>('items', 'a'))!;
    doc.n = 99;
    doc.nested.k = 99;
    assert.deepEqual(await ctx.get('items', 'a'), { id: 'a', n: 1, nested: { k: 1 } });
    assert.deepEqual(ctx.ops(), []);
  });

  it('a write for an event the stored document already reflects is dropped, later events apply on top', async () => {
    await store.collection('items__g1').upsert({ id: 'c', count: 7, _position: 20 });
    const ctx = new BatchContext(store, 'p', physical);
    for (const position of [18, 20, 21, 22]) {
      ctx.begin(event(position));
      const doc = (await ctx.get<Doc & { count: number }>('items', 'c'))!;
      doc.count += 1;
      ctx.upsert('items', doc);
    }
    assert.deepEqual(ctx.ops(), [
      { kind: 'upsert', collection: 'items__g1', doc: { id: 'c', count: 9, _position: 22 }, guardPosition: 22 },
    ]);
  });

  it('find merges stored and pending documents: filter, sort, limit and cursor', async () => {
    const col = store.collection('items__g1');
    for (const [id, rank] of [
      ['s1', 1],
      ['s3', 3],
      ['s5', 5],
      ['s7', 7],
      ['s9', 9],
    ] as const) {
      await col.upsert({ id, rank, kind: 'x' });
    }
    const ctx = new BatchContext(store, 'p', physical);
    ctx.begin(event(1));
    ctx.upsert('items', { id: 'p4', rank: 4, kind: 'x' });
    ctx.upsert('items', { id: 'p8', rank: 8, kind: 'x' });
    ctx.upsert('items', { id: 's5', rank: 6, kind: 'x' });
    ctx.upsert('items', { id: 'py', rank: 2, kind: 'y' });
    ctx.delete('items', 's3');

    const ranks = (items: Doc[]) => items.map((d) => `${d.id}:${d.rank}`);
    const all = await ctx.find('items', { kind: 'x' }, { sort: [['rank', 1]], limit: 100 });
    assert.deepEqual(ranks(all.items), ['s1:1', 'p4:4', 's5:6', 's7:7', 'p8:8', 's9:9']);
    assert.equal(all.nextCursor, null);

    const pages: string[] = [];
    let after: string | undefined;
    let guard = 0;
    do {
      const page = await ctx.find(
        'items',
        { kind: 'x' },
        { sort: [['rank', -1]], limit: 2, ...(after ? { after } : {}) },
      );
      pages.push(ranks(page.items).join(' '));
      after = page.nextCursor ?? undefined;
    } while (after && ++guard < 10);
    assert.deepEqual(pages, ['s9:9 p8:8', 's7:7 s5:6', 'p4:4 s1:1']);

    assert.deepEqual(ranks((await ctx.find('items', { rank: { $lt: 5 } }, { sort: [['rank', 1]] })).items), [
      's1:1',
      'py:2',
      'p4:4',
    ]);
    assert.deepEqual(ranks((await ctx.find('other')).items), [], 'a collection without pending writes reads the store');
  });

  it('refuses collections the projection did not declare', async () => {
    const ctx = new BatchContext(store, 'p', physical);
    ctx.begin(event(1));
    assert.throws(() => ctx.upsert('nope', { id: 'x' }), /did not declare the collection nope/);
    await assert.rejects(ctx.get('nope', 'x'), /did not declare/);
  });
});
