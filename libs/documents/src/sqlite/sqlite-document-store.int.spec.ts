import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ConcurrentModificationError, SqliteDocumentStore, type DocumentStore } from '#documents';
import { documentStoreContract } from '#documents/testing';

async function tempFile(): Promise<{ dir: string; path: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'docs-sqlite-'));
  return { dir, path: join(dir, 'svc.sqlite') };
}

documentStoreContract(
  'sqlite',
  async () => {
    const { dir, path } = await tempFile();
    const opened: DocumentStore[] = [new SqliteDocumentStore({ path })];
    return {
      store: opened[0]!,
      reopen: async () => {
        const store = new SqliteDocumentStore({ path });
        opened.push(store);
        return store;
      },
      cleanup: async () => {
        for (const store of opened) await store.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  { atomicBatches: true },
);

describe('SqliteDocumentStore specifics', () => {
  let dir: string;
  let path: string;
  let stores: Array<{ close(): Promise<void> }>;
  const open = () => {
    const store = new SqliteDocumentStore({ path });
    stores.push(store);
    return store;
  };

  beforeEach(async () => {
    ({ dir, path } = await tempFile());
    stores = [];
  });
  afterEach(async () => {
    for (const s of stores) await s.close();
    await rm(dir, { recursive: true, force: true });
  });

  const usesIndex = (plan: string[]) => plan.some((line) => /USING (COVERING )?INDEX doc_/.test(line));
  const sortsInMemory = (plan: string[]) => plan.some((line) => line.includes('TEMP B-TREE'));

  it('a rebuildable batch commits without an fsync of its own, and every other write on the connection stays FULL', async () => {
    const store = open();
    const FULL = 2;
    assert.equal(store.synchronousLevel(), FULL);
    await store.applyBatch([{ kind: 'upsert', collection: 'rm', doc: { id: 'a', n: 1 } }], { rebuildable: true });
    assert.equal(store.synchronousLevel(), FULL, 'back to FULL after a rebuildable commit');
    await assert.rejects(
      store.applyBatch(
        [
          { kind: 'upsert', collection: 'rm', doc: { id: 'b', n: 1 } },
          { kind: 'cas', collection: 'rm', doc: { id: 'a', n: 2 }, expect: { n: 0 } },
        ],
        { rebuildable: true },
      ),
      ConcurrentModificationError,
    );
    assert.equal(store.synchronousLevel(), FULL, 'back to FULL after a rolled-back one');
    assert.equal(await open().collection('rm').get('b'), null);
  });

  it('find uses the declared expression indexes, for the filter and the order, on every keyset segment', async () => {
    const store = open();
    const col = store.collection('tasks');
    await store.ensureIndexes('tasks', [
      {
        fields: [
          ['status', 1],
          ['created_at', -1],
        ],
      },
      { fields: [['owner.name', 1]] },
      { fields: [['n', 1]] },
    ]);
    for (let i = 0; i < 200; i++) {
      await col.upsert({
        id: `t${i}`,
        status: i % 2 ? 'open' : 'done',
        created_at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
        owner: { name: `o${i % 7}` },
        n: i,
      });
    }
    const page = await col.find({ status: 'open' }, { sort: [['created_at', -1]], limit: 10 });
    const cases = [
      store.explainFind('tasks', { status: 'open' }, { sort: [['created_at', -1]], limit: 10 }),
      store.explainFind(
        'tasks',
        { status: 'open' },
        { sort: [['created_at', -1]], limit: 10, after: page.nextCursor! },
      ),
      store.explainFind('tasks', { 'owner.name': 'o3' }),
      store.explainFind('tasks', { n: { $gt: 150 } }, { sort: [['n', 1]] }),
      store.explainFind('tasks', { n: { $in: [1, 2, 3] } }),
    ];
    for (const statements of cases) {
      for (const { sql, plan } of statements) {
        assert.ok(usesIndex(plan), `index used:\n${sql}\n${plan.join('\n')}`);
      }
    }
    for (const { sql, plan } of [...cases[0]!, ...cases[1]!, ...cases[3]!]) {
      assert.ok(!sortsInMemory(plan), `ordered by the index:\n${sql}\n${plan.join('\n')}`);
    }
    assert.ok(cases[1]!.length > 1, 'a cursor page runs one seek per keyset segment');
    // Without an index the same query scans: the check above can fail.
    const unindexed = store.explainFind('tasks', { other: 'x' });
    assert.ok(!usesIndex(unindexed[0]!.plan), unindexed[0]!.plan.join('\n'));
  });

  it('two connections on one file: writes are visible, a drop by one is survived by the other, cas decides', async () => {
    const a = open();
    const b = open();
    await a.collection('c').upsert({ id: '1', v: 1 });
    assert.deepEqual(await b.collection('c').get('1'), { id: '1', v: 1 });
    await b.dropCollection('c');
    assert.equal(await a.collection('c').get('1'), null, 'a read of a collection dropped elsewhere sees it empty');
    await a.collection('c').upsert({ id: '2', v: 2 });
    await a.applyBatch([{ kind: 'upsert', collection: 'c', doc: { id: '3' } }]);
    await b.dropCollection('c');
    await a.applyBatch([{ kind: 'upsert', collection: 'c', doc: { id: '4' } }]);
    assert.deepEqual((await b.collection('c').find()).items, [{ id: '4' }]);

    await a.applyBatch([{ kind: 'cas', collection: 'cp', doc: { id: 'p', position: 0 }, expect: null }]);
    await b.applyBatch([{ kind: 'cas', collection: 'cp', doc: { id: 'p', position: 10 }, expect: { position: 0 } }]);
    await assert.rejects(
      a.applyBatch([
        { kind: 'upsert', collection: 'c', doc: { id: 'lost' } },
        { kind: 'cas', collection: 'cp', doc: { id: 'p', position: 10 }, expect: { position: 0 } },
      ]),
      ConcurrentModificationError,
    );
    assert.equal(await b.collection('c').get('lost'), null);
  });

  it('finds of one shape (flat string equality) reuse the compiled statement with their own values, limit and sort', async () => {
    const c = open().collection('shapes');
    for (const [id, a, n] of [
      ['1', 'x', 1],
      ['2', 'x', 2],
      ['3', 'y', 3],
      ['4', 'x', '4'],
    ] as const)
      await c.upsert({ id, a, n });
    const ids = (r: { items: Array<{ id: string }> }) => r.items.map((d) => d.id);
    assert.deepEqual(ids(await c.find({ a: 'x' }, { sort: [['id', 1]] })), ['1', '2', '4']);
    assert.deepEqual(
      ids(await c.find({ a: 'x' }, { sort: [['id', 1]] })),
      ['1', '2', '4'],
      'the compiled statement answers the same',
    );
    assert.deepEqual(ids(await c.find({ a: 'y' }, { sort: [['id', 1]] })), ['3'], 'with the values of this call');
    assert.deepEqual(
      ids(await c.find({ a: 'x' }, { sort: [['id', -1]] })),
      ['4', '2', '1'],
      'another sort is another shape',
    );
    const first = await c.find({ a: 'x' }, { sort: [['id', 1]], limit: 2 });
    assert.deepEqual(ids(first), ['1', '2']);
    assert.ok(first.nextCursor, 'a full page of a compiled shape has a cursor');
    assert.deepEqual(ids(await c.find({ a: 'x' }, { sort: [['id', 1]], limit: 2, after: first.nextCursor })), ['4']);
    assert.deepEqual(ids(await c.find({ n: 4 })), [], 'a number is not a string: no shape, no match with "4"');
    assert.deepEqual(ids(await c.find({ n: '4' })), ['4']);
    assert.deepEqual(ids(await c.find({ a: { $gt: 'x' } })), ['3'], 'operators take the full path');
    await assert.rejects(c.find({ a: 'x' }, { sort: [['a', 2 as 1]] }), /direction/);
  });

  it('a collection read as missing is seen as soon as another connection creates it, and missing again once dropped', async () => {
    const reader = open();
    const writer = open();
    const c = reader.collection('later');
    // Read twice: the second read is answered from the remembered "missing at this schema version".
    for (let i = 0; i < 2; i++) {
      assert.deepEqual(await c.find({ k: 1 }, { sort: [['k', 1]] }), { items: [], nextCursor: null });
      assert.equal(await c.get('1'), null);
      assert.equal(await c.count(), 0);
    }
    await writer.collection('other').upsert({ id: 'x' });
    assert.equal(await c.get('1'), null, 'an unrelated table changes the schema version, not the answer');
    await writer.collection('later').upsert({ id: '1', k: 1 });
    assert.deepEqual(await c.get('1'), { id: '1', k: 1 });
    assert.deepEqual((await c.find({ k: 1 })).items, [{ id: '1', k: 1 }]);
    assert.equal(await c.count(), 1);
    await writer.dropCollection('later');
    assert.equal(await c.get('1'), null);
    assert.equal(await c.get('1'), null);
    await writer.collection('later').upsert({ id: '2' });
    assert.deepEqual((await c.find()).items, [{ id: '2' }]);
  });

  it('rejects collection names that could not be a table name', async () => {
    const store = open();
    for (const name of ['', 'a b', 'x"y', 'a;drop', '-lead', 'a'.repeat(121)]) {
      assert.throws(() => store.collection(name), TypeError, name);
    }
    assert.ok(store.collection('x__g1.part-2'));
  });
});
