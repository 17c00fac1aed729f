// Over 400 lines on purpose: the one contract every document-store adapter passes, one list of
// cases over one fixture; it is read as the specification of the port.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  ConcurrentModificationError,
  DuplicateKeyError,
  InvalidFilterError,
  matchesFilter,
  type Doc,
  type DocumentStore,
  type Filter,
  type FindOptions,
  type Scalar,
  type Sort,
} from '#documents';

export interface DocumentStoreFixture {
  store: DocumentStore;
  /**
   * Opens a new store on the same data: after `store.close()`, or beside it as a second
   * connection (another process's); omit when the adapter cannot. Closed by `cleanup`.
   */
  reopen?: () => Promise<DocumentStore>;
  /** Closes every store the fixture opened (close is idempotent) and removes its data. */
  cleanup(): Promise<void>;
}

export interface DocumentStoreContractOptions {
  /** Register the suite as skipped with this reason (e.g. the server's URL is not set). */
  skip?: string;
  /** The adapter applies a batch all or nothing (embedded); check that a failed batch left nothing. */
  atomicBatches?: boolean;
}

/**
 * The behaviour every DocumentStore adapter must show (DESIGN §2, the port's comments).
 * Each test gets a fresh fixture and its own random collection names, so the suite also runs
 * against a shared server holding other data.
 */
export function documentStoreContract(
  adapterName: string,
  factory: () => Promise<DocumentStoreFixture>,
  options: DocumentStoreContractOptions = {},
): void {
  const test = (name: string, fn: (f: DocumentStoreFixture, c: (suffix?: string) => string) => Promise<void>) =>
    void it(name, async () => {
      const fixture = await factory();
      const prefix = `ct_${randomBytes(5).toString('hex')}`;
      const made = new Set<string>();
      const collectionName = (suffix = 'main') => {
        const name = `${prefix}_${suffix}`;
        made.add(name);
        return name;
      };
      try {
        await fn(fixture, collectionName);
      } finally {
        // On a shared server, leave nothing behind (a fixture for a temp file drops it anyway).
        try {
          for (const name of made) await fixture.store.dropCollection(name);
        } catch {
          // the test closed the store; cleanup() below removes what it must
        }
        await fixture.cleanup();
      }
    });

  describe(`DocumentStore contract: ${adapterName}`, options.skip ? { skip: options.skip } : {}, () => {
    describe('documents by id', () => {
      test('upsert inserts and replaces the whole document; get reads it back', async ({ store }, c) => {
        const col = store.collection(c());
        const doc = {
          id: 'a',
          text: 'héllo ✓ 𝄞',
          int: 42,
          float: -1.5,
          big: 9007199254740991,
          yes: true,
          no: false,
          nothing: null,
          list: [1, 'two', { three: 3 }],
          nested: { deep: { x: 'y' } },
        };
        await col.upsert(doc);
        assert.deepEqual(await col.get('a'), doc);
        await col.upsert({ id: 'a', only: 1 });
        assert.deepEqual(await col.get('a'), { id: 'a', only: 1 }, 'the old fields are gone');
        assert.equal(await col.get('missing'), null);
      });

      test('a collection never written reads as empty', async ({ store }, c) => {
        const col = store.collection(c());
        assert.equal(await col.get('x'), null);
        assert.deepEqual(await col.getMany(['x']), []);
        assert.deepEqual(await col.find({ a: 1 }), { items: [], nextCursor: null });
        assert.equal(await col.count(), 0);
        assert.equal(await col.delete('x'), false);
        assert.equal(await col.deleteMany({}), 0);
      });

      test('getMany returns the documents found and skips missing ids', async ({ store }, c) => {
        const col = store.collection(c());
        for (const id of ['a', 'b', 'c']) await col.upsert({ id, v: id.toUpperCase() });
        const found = await col.getMany(['c', 'zz', 'a', 'a']);
        assert.deepEqual(found.map((d) => d.id).sort(), ['a', 'c']);
        assert.deepEqual(
          found.find((d) => d.id === 'c'),
          { id: 'c', v: 'C' },
        );
        assert.deepEqual(await col.getMany([]), []);
      });

      test('insertIfAbsent inserts once and then changes nothing', async ({ store }, c) => {
        const col = store.collection(c());
        assert.equal(await col.insertIfAbsent({ id: 'k', v: 1 }), true);
        assert.equal(await col.insertIfAbsent({ id: 'k', v: 2 }), false);
        assert.deepEqual(await col.get('k'), { id: 'k', v: 1 });
      });

      test('delete removes a document and says whether there was one', async ({ store }, c) => {
        const col = store.collection(c());
        await col.upsert({ id: 'a' });
        await col.upsert({ id: 'b' });
        assert.equal(await col.delete('a'), true);
        assert.equal(await col.delete('a'), false);
        assert.equal(await col.get('a'), null);
        assert.deepEqual(await col.get('b'), { id: 'b' });
      });

      test('collections are separate', async ({ store }, c) => {
        await store.collection(c('one')).upsert({ id: 'same', from: 'one' });
        await store.collection(c('two')).upsert({ id: 'same', from: 'two' });
        assert.deepEqual(await store.collection(c('one')).get('same'), { id: 'same', from: 'one' });
        assert.deepEqual(await store.collection(c('two')).get('same'), { id: 'same', from: 'two' });
      });
    });

    describe('filters', () => {
      const docs: Doc[] = [
        { id: 'd1', n: 1, s: 'apple', b: true, z: null, m: 5, o: { k: 'x', n: 10 } },
        { id: 'd2', n: 2, s: 'banana', b: false, m: 'five', o: { k: 'y', n: 20 } },
        { id: 'd3', n: 10, s: '10', b: true, z: 0, m: true, o: { k: 'x' } },
        { id: 'd4', n: '10', s: 'cherry', z: 'nil' },
        { id: 'd5', n: 2.5, s: 'Apple', o: null },
        { id: 'd6', n: -3, s: 'zebra', b: 1 },
        { id: 'd7' },
      ];
      const cases: Array<[string, Filter, string[]]> = [
        ['empty filter', {}, ['d1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7']],
        ['number equality is not string equality', { n: 10 }, ['d3']],
        ['string equality is not number equality', { n: '10' }, ['d4']],
        ['$eq', { n: { $eq: 2 } }, ['d2']],
        ['true is not 1', { b: true }, ['d1', 'd3']],
        ['1 is not true', { b: 1 }, ['d6']],
        ['false', { b: false }, ['d2']],
        ['null matches null and missing', { z: null }, ['d1', 'd2', 'd5', 'd6', 'd7']],
        ['$eq null', { z: { $eq: null } }, ['d1', 'd2', 'd5', 'd6', 'd7']],
        ['$exists true includes null', { z: { $exists: true } }, ['d1', 'd3', 'd4']],
        ['$exists false', { z: { $exists: false } }, ['d2', 'd5', 'd6', 'd7']],
        ['$ne null', { z: { $ne: null } }, ['d3', 'd4']],
        ['$ne includes missing', { n: { $ne: 2 } }, ['d1', 'd3', 'd4', 'd5', 'd6', 'd7']],
        ['$ne true', { b: { $ne: true } }, ['d2', 'd4', 'd5', 'd6', 'd7']],
        ['$gt number: numbers only', { n: { $gt: 2 } }, ['d3', 'd5']],
        ['$gte number', { n: { $gte: 2 } }, ['d2', 'd3', 'd5']],
        ['$lt number', { n: { $lt: 2 } }, ['d1', 'd6']],
        ['$lte number', { n: { $lte: 2 } }, ['d1', 'd2', 'd6']],
        ['$gt string: strings only, byte order', { s: { $gt: 'b' } }, ['d2', 'd4', 'd6']],
        ['$lt string', { s: { $lt: 'a' } }, ['d3', 'd5']],
        ['$lte string', { s: { $lte: 'apple' } }, ['d1', 'd3', 'd5']],
        ['range on mixed types: numbers', { m: { $gt: 0 } }, ['d1']],
        ['range on mixed types: strings', { m: { $gte: '' } }, ['d2']],
        ['range on mixed types: strings below', { m: { $lt: 'z' } }, ['d2']],
        ['two operators on one field', { n: { $gt: 1, $lt: 10 } }, ['d2', 'd5']],
        ['$in mixed with null', { n: { $in: [1, '10', null] } }, ['d1', 'd4', 'd7']],
        ['$in true', { b: { $in: [true] } }, ['d1', 'd3']],
        ['$in 1', { b: { $in: [1] } }, ['d6']],
        ['$in empty', { n: { $in: [] } }, []],
        ['dotted path equality', { 'o.k': 'x' }, ['d1', 'd3']],
        ['dotted path range', { 'o.n': { $gte: 15 } }, ['d2']],
        ['dotted path missing (no parent, null parent)', { 'o.k': { $exists: false } }, ['d4', 'd5', 'd6', 'd7']],
        ['dotted path null', { 'o.k': null }, ['d4', 'd5', 'd6', 'd7']],
        ['several fields are ANDed', { 'o.k': 'x', b: true, n: { $gt: 5 } }, ['d3']],
        ['id equality', { id: 'd3' }, ['d3']],
        ['id $in', { id: { $in: ['d1', 'd9'] } }, ['d1']],
        ['id range', { id: { $gt: 'd5' } }, ['d6', 'd7']],
        ['id $ne', { id: { $ne: 'd1' } }, ['d2', 'd3', 'd4', 'd5', 'd6', 'd7']],
      ];

      test('every operator, type semantics and dotted paths (and the reference matcher agrees)', async ({
        store,
      }, c) => {
        const col = store.collection(c());
        for (const doc of docs) await col.upsert(doc);
        for (const [name, filter, expected] of cases) {
          const found = await col.find(filter);
          assert.deepEqual(
            found.items.map((d) => d.id),
            expected,
            `find: ${name} ${JSON.stringify(filter)}`,
          );
          assert.equal(found.nextCursor, null);
          assert.equal(await col.count(filter), expected.length, `count: ${name}`);
          assert.deepEqual(
            docs.filter((d) => matchesFilter(d, filter)).map((d) => d.id),
            expected,
            `matchesFilter: ${name}`,
          );
        }
        assert.deepEqual((await col.find({ n: 2 })).items, [docs[1]], 'find returns whole documents');
      });

      test('deleteMany deletes exactly the matching documents', async ({ store }, c) => {
        const col = store.collection(c());
        for (const doc of docs) await col.upsert(doc);
        assert.equal(await col.deleteMany({ b: true }), 2);
        assert.deepEqual(
          (await col.find()).items.map((d) => d.id),
          ['d2', 'd4', 'd5', 'd6', 'd7'],
        );
        assert.equal(await col.deleteMany({ n: { $exists: false } }), 1);
        assert.equal(await col.deleteMany({}), 4);
        assert.equal(await col.count(), 0);
      });

      test('unsupported filters are rejected with InvalidFilterError', async ({ store }, c) => {
        const col = store.collection(c());
        await col.upsert({ id: 'a', n: 1 });
        const bad: unknown[] = [
          { n: { $regex: 'a' } },
          { $or: [{ n: 1 }] },
          { n: { $gt: null } },
          { n: { $lt: true } },
          { n: { nested: 1 } },
          { n: {} },
          { n: [1, 2] },
          { n: { $in: 5 } },
          { n: { $in: [{ a: 1 }] } },
          { n: { $exists: 'yes' } },
          { 'bad path': 1 },
          { 'a..b': 1 },
          { n: { $eq: { a: 1 } } },
          { n: Number.NaN },
        ];
        for (const filter of bad) {
          await assert.rejects(col.find(filter as Filter), InvalidFilterError, `find ${JSON.stringify(filter)}`);
          await assert.rejects(col.count(filter as Filter), InvalidFilterError, `count ${JSON.stringify(filter)}`);
          await assert.rejects(
            col.deleteMany(filter as Filter),
            InvalidFilterError,
            `deleteMany ${JSON.stringify(filter)}`,
          );
        }
        assert.equal(await col.count(), 1, 'a rejected deleteMany deleted nothing');
        await assert.rejects(col.find({}, { sort: [['bad field', 1]] }), InvalidFilterError);
        await assert.rejects(col.find({}, { after: 'not-a-cursor' }), InvalidFilterError);
      });
    });

    describe('sort and keyset pagination', () => {
      // g has ties and gaps (missing, null); v breaks some ties; id breaks the rest.
      const seed = (): Doc[] => {
        const out: Doc[] = [];
        for (let i = 0; i < 57; i++) {
          const id = `p${String((i * 37) % 57).padStart(2, '0')}`;
          const doc: Doc = { id, i };
          if (i % 7 === 3) doc.g = null;
          else if (i % 7 !== 5) doc.g = i % 4 === 0 ? `s${i % 3}` : i % 5;
          if (i % 3 !== 0) doc.v = i % 6;
          doc.meta = { at: i % 9 };
          out.push(doc);
        }
        return out;
      };

      const expectedOrder = (docs: Doc[], sort: Sort): string[] => {
        const keys: Sort = sort.some(([f]) => f === 'id') ? sort : [...sort, ['id', 1]];
        const rank = (v: unknown) => (v === undefined || v === null ? 0 : typeof v === 'number' ? 1 : 2);
        const cmp = (a: unknown, b: unknown) => {
          if (rank(a) !== rank(b)) return rank(a) - rank(b);
          if (rank(a) === 0) return 0;
          return (a as number | string) < (b as number | string)
            ? -1
            : (a as number | string) > (b as number | string)
              ? 1
              : 0;
        };
        const get = (d: Doc, path: string) =>
          path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], d);
        return [...docs]
          .sort((a, b) => {
            for (const [f, dir] of keys) {
              const x = cmp(get(a, f), get(b, f));
              if (x !== 0) return x * dir;
            }
            return 0;
          })
          .map((d) => d.id);
      };

      const allPages = async (
        find: (o: FindOptions) => Promise<{ items: Doc[]; nextCursor: string | null }>,
        limit: number,
      ) => {
        const ids: string[] = [];
        let after: string | undefined;
        for (let page = 0; page < 100; page++) {
          const r = await find({ limit, ...(after ? { after } : {}) });
          assert.ok(r.items.length <= limit);
          ids.push(...r.items.map((d) => d.id));
          if (!r.nextCursor) return ids;
          assert.equal(r.items.length, limit, 'only the last page is short');
          after = r.nextCursor;
        }
        throw new Error('pagination did not end');
      };

      const sorts: Array<[string, Sort]> = [
        ['default (id)', []],
        ['asc with ties, nulls and mixed types', [['g', 1]]],
        ['desc with ties, nulls last', [['g', -1]]],
        [
          'two keys, mixed directions',
          [
            ['g', 1],
            ['v', -1],
          ],
        ],
        [
          'two keys, both desc',
          [
            ['v', -1],
            ['g', -1],
          ],
        ],
        ['dotted path', [['meta.at', -1]]],
        ['id desc', [['id', -1]]],
      ];

      test('sort asc/desc with ties: missing and null first ascending, id breaks ties', async ({ store }, c) => {
        const col = store.collection(c());
        const docs = seed();
        for (const doc of docs) await col.upsert(doc);
        for (const [name, sort] of sorts) {
          const r = await col.find({}, { sort, limit: 1000 });
          assert.deepEqual(
            r.items.map((d) => d.id),
            expectedOrder(docs, sort),
            name,
          );
        }
        const filtered = await col.find({ g: { $gte: 1 } }, { sort: [['g', -1]] });
        assert.deepEqual(
          filtered.items.map((d) => d.id),
          expectedOrder(
            docs.filter((d) => typeof d.g === 'number' && d.g >= 1),
            [['g', -1]],
          ),
        );
      });

      test('keyset pagination walks every page once, for every sort', async ({ store }, c) => {
        const col = store.collection(c());
        const docs = seed();
        for (const doc of docs) await col.upsert(doc);
        for (const [name, sort] of sorts) {
          for (const limit of [1, 7, 10, 57, 100]) {
            const ids = await allPages((o) => col.find({}, { ...o, sort }), limit);
            assert.deepEqual(ids, expectedOrder(docs, sort), `${name}, limit ${limit}`);
          }
        }
        const filter: Filter = { v: { $ne: 2 } };
        const ids = await allPages(
          (o) =>
            col.find(filter, {
              ...o,
              sort: [
                ['g', -1],
                ['v', 1],
              ],
            }),
          4,
        );
        assert.deepEqual(
          ids,
          expectedOrder(
            docs.filter((d) => d.v !== 2),
            [
              ['g', -1],
              ['v', 1],
            ],
          ),
          'with a filter',
        );
      });

      test('pagination is stable under inserts and deletes between pages', async ({ store }, c) => {
        const col = store.collection(c());
        for (let i = 10; i < 30; i++) await col.upsert({ id: `k${i}`, rank: i });
        const sort: Sort = [['rank', 1]];
        const first = await col.find({}, { sort, limit: 5 });
        assert.deepEqual(
          first.items.map((d) => d.rank),
          [10, 11, 12, 13, 14],
        );
        await col.upsert({ id: 'before', rank: 12.5 });
        await col.upsert({ id: 'after', rank: 15.5 });
        await col.delete('k14');
        const seen = new Set(first.items.map((d) => d.id));
        let after = first.nextCursor;
        const rest: unknown[] = [];
        while (after) {
          const page = await col.find({}, { sort, limit: 5, after });
          for (const d of page.items) {
            assert.ok(!seen.has(d.id), `no duplicate: ${d.id}`);
            seen.add(d.id);
            rest.push(d.rank);
          }
          after = page.nextCursor;
        }
        assert.deepEqual(rest, [15, 15.5, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29]);
      });

      test('the default page size is 100', async ({ store }, c) => {
        const col = store.collection(c());
        await store.applyBatch(
          Array.from({ length: 105 }, (_, i) => ({
            kind: 'upsert' as const,
            collection: c(),
            doc: { id: `x${String(i).padStart(3, '0')}` },
          })),
        );
        const page = await col.find();
        assert.equal(page.items.length, 100);
        assert.ok(page.nextCursor);
        const next = await col.find({}, { after: page.nextCursor });
        assert.deepEqual(
          next.items.map((d) => d.id),
          ['x100', 'x101', 'x102', 'x103', 'x104'],
        );
        assert.equal(next.nextCursor, null);
      });
    });

    describe('indexes', () => {
      test('ensureIndexes is idempotent and queries give the same answers', async ({ store }, c) => {
        const col = store.collection(c());
        for (let i = 0; i < 30; i++)
          await col.upsert({ id: `i${i}`, status: i % 3 === 0 ? 'open' : 'closed', at: i, o: { t: i % 4 } });
        const indexes = [
          {
            fields: [
              ['status', 1],
              ['at', -1],
            ] as Sort,
          },
          { fields: [['o.t', 1]] as Sort },
        ];
        await store.ensureIndexes(c(), indexes);
        await store.ensureIndexes(c(), indexes);
        const r = await col.find({ status: 'open' }, { sort: [['at', -1]], limit: 3 });
        assert.deepEqual(
          r.items.map((d) => d.at),
          [27, 24, 21],
        );
        const r2 = await col.find({ status: 'open' }, { sort: [['at', -1]], limit: 3, after: r.nextCursor! });
        assert.deepEqual(
          r2.items.map((d) => d.at),
          [18, 15, 12],
        );
        assert.equal(await col.count({ 'o.t': 2 }), 7);
      });

      test('a unique index rejects a second document with the same value', async ({ store }, c) => {
        const col = store.collection(c());
        await store.ensureIndexes(c(), [{ fields: [['email', 1]], unique: true }]);
        await col.upsert({ id: 'u1', email: 'a@example.com' });
        await assert.rejects(col.upsert({ id: 'u2', email: 'a@example.com' }), DuplicateKeyError);
        await assert.rejects(col.insertIfAbsent({ id: 'u3', email: 'a@example.com' }), DuplicateKeyError);
        await col.upsert({ id: 'u1', email: 'a@example.com', name: 'same doc, same value' });
        await col.upsert({ id: 'u4', email: 'b@example.com' });
        assert.deepEqual(
          (await col.find({}, { sort: [['email', 1]] })).items.map((d) => d.id),
          ['u1', 'u4'],
        );
        await col.delete('u1');
        await col.upsert({ id: 'u2', email: 'a@example.com' });
        assert.equal(await col.count({ email: 'a@example.com' }), 1);
      });

      test('a compound unique index compares the whole key', async ({ store }, c) => {
        const col = store.collection(c());
        await store.ensureIndexes(c(), [
          {
            fields: [
              ['tenant', 1],
              ['key.name', 1],
            ],
            unique: true,
          },
        ]);
        await col.upsert({ id: '1', tenant: 't1', key: { name: 'a' } });
        await col.upsert({ id: '2', tenant: 't2', key: { name: 'a' } });
        await col.upsert({ id: '3', tenant: 't1', key: { name: 'b' } });
        await assert.rejects(col.upsert({ id: '4', tenant: 't1', key: { name: 'a' } }), DuplicateKeyError);
        assert.equal(await col.count(), 3);
      });
    });

    describe('updateIf', () => {
      test('sets fields only when the document exists and matches, keeping the others', async ({ store }, c) => {
        const col = store.collection(c());
        await store.ensureIndexes(c(), [{ fields: [['email', 1]], unique: true }]);
        await col.upsert({ id: 'a', state: 'open', n: 1, keep: { deep: [1, 2] } });
        await col.upsert({ id: 'b', email: 'taken' });
        assert.equal(await col.updateIf('nope', {}, { state: 'x' }), false, 'a missing document');
        assert.equal(await col.get('nope'), null, 'updateIf never inserts');
        assert.equal(await col.updateIf('a', { state: 'closed' }, { state: 'x' }), false, 'no match');
        assert.equal(await col.updateIf('a', { n: '1' }, { state: 'x' }), false, 'types never mix');
        assert.equal(
          await col.updateIf(
            'a',
            { state: 'open', taken_at: null },
            { state: 'taken', taken_at: 7, meta: { by: 'me' } },
          ),
          true,
          'an expected null matches a missing field',
        );
        assert.deepEqual(await col.get('a'), {
          id: 'a',
          state: 'taken',
          n: 1,
          keep: { deep: [1, 2] },
          taken_at: 7,
          meta: { by: 'me' },
        });
        assert.equal(await col.updateIf('a', { taken_at: null }, { state: 'again' }), false, 'taken once');
        assert.equal(await col.updateIf('a', { n: { $lt: 5 } }, { n: 5, state: null }), true, 'operators work');
        assert.deepEqual((await col.find({ n: 5, state: null })).items, [await col.get('a')]);
        assert.equal((await col.get('a'))?.state, null, 'null is stored as null');
        await assert.rejects(col.updateIf('a', {}, { email: 'taken' }), DuplicateKeyError);
        assert.equal((await col.get('a'))?.email, undefined, 'a unique violation changes nothing');
        await assert.rejects(col.updateIf('a', {}, { id: 'b' }), InvalidFilterError);
        await assert.rejects(col.updateIf('a', {}, { 'meta.by': 'x' }), InvalidFilterError);
        await assert.rejects(col.updateIf('a', {}, { $set: 1 }), InvalidFilterError);
        await assert.rejects(col.updateIf('a', {}, {}), InvalidFilterError);
        await assert.rejects(col.updateIf('a', { n: { $regex: 'x' } } as never, { n: 1 }), InvalidFilterError);
        assert.equal(
          await store.collection(c('never')).updateIf('a', {}, { n: 1 }),
          false,
          'a collection never written',
        );
      });

      test('takes once: of many concurrent updateIfs over two connections, exactly one wins', async (fixture, c) => {
        // Each call's write makes the others' condition false. An adapter that checked with a read
        // and wrote after it would let several win: the calls interleave at every await, and on
        // a server, in parallel.
        const stores = [fixture.store, fixture.reopen ? await fixture.reopen() : fixture.store];
        for (let round = 0; round < 10; round++) {
          const id = `code${round}`;
          await fixture.store.collection(c()).upsert({ id, consumed_at: null, by: null });
          const won = await Promise.all(
            Array.from({ length: 16 }, (_, i) =>
              stores[i % 2]!.collection(c()).updateIf(id, { consumed_at: null }, { consumed_at: round, by: `c${i}` }),
            ),
          );
          const winners = won.flatMap((w, i) => (w ? [`c${i}`] : []));
          assert.equal(winners.length, 1, `round ${round}: ${winners.join(', ')} won`);
          assert.equal((await stores[1]!.collection(c()).get(id))?.by, winners[0], 'the stored write is the winner’s');
        }
      });
    });

    describe('applyBatch', () => {
      test('applies upserts and deletes in order across collections', async ({ store }, c) => {
        await store.applyBatch([
          { kind: 'upsert', collection: c('a'), doc: { id: '1', v: 1 } },
          { kind: 'upsert', collection: c('b'), doc: { id: '1', v: 'b' } },
          { kind: 'upsert', collection: c('a'), doc: { id: '2', v: 2 } },
          { kind: 'upsert', collection: c('a'), doc: { id: '1', v: 11 } },
          { kind: 'delete', collection: c('a'), id: '2' },
        ]);
        assert.deepEqual((await store.collection(c('a')).find()).items, [{ id: '1', v: 11 }]);
        assert.deepEqual(await store.collection(c('b')).get('1'), { id: '1', v: 'b' });
        await store.applyBatch([]);
      });

      test('guarded writes: a write at or below the stored position is skipped', async ({ store }, c) => {
        const col = store.collection(c());
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'x', n: 1 }, guardPosition: 5 }]);
        assert.deepEqual(await col.get('x'), { id: 'x', n: 1, _position: 5 }, 'the guard position is stored');
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'x', n: 99 }, guardPosition: 5 }]);
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'x', n: 98 }, guardPosition: 3 }]);
        assert.deepEqual(await col.get('x'), { id: 'x', n: 1, _position: 5 });
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'x', n: 2 }, guardPosition: 7 }]);
        assert.deepEqual(await col.get('x'), { id: 'x', n: 2, _position: 7 });
        await store.applyBatch([{ kind: 'delete', collection: c(), id: 'x', guardPosition: 7 }]);
        assert.ok(await col.get('x'), 'a delete at the stored position is skipped');
        await store.applyBatch([{ kind: 'delete', collection: c(), id: 'x', guardPosition: 8 }]);
        assert.equal(await col.get('x'), null);
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'y', n: 1 } }]);
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'y', n: 2 }, guardPosition: 1 }]);
        assert.deepEqual(
          await col.get('y'),
          { id: 'y', n: 2, _position: 1 },
          'an unguarded document takes any guarded write',
        );
      });

      test('a replayed batch changes nothing', async ({ store }, c) => {
        const col = store.collection(c());
        await col.upsert({ id: 'z', n: 0, _position: 3 });
        const batch = [
          { kind: 'upsert' as const, collection: c(), doc: { id: 'x', total: 10 }, guardPosition: 10 },
          { kind: 'upsert' as const, collection: c(), doc: { id: 'y', total: 11 }, guardPosition: 11 },
          { kind: 'delete' as const, collection: c(), id: 'z', guardPosition: 12 },
        ];
        await store.applyBatch(batch);
        const after = (await col.find()).items;
        assert.deepEqual(
          after.map((d) => d.id),
          ['x', 'y'],
        );
        // Someone moved on since (position 20); the replay must not undo it.
        await store.applyBatch([{ kind: 'upsert', collection: c(), doc: { id: 'y', total: 20 }, guardPosition: 20 }]);
        const moved = (await col.find()).items;
        await store.applyBatch(batch);
        assert.deepEqual((await col.find()).items, moved);
      });

      test('cas writes only when the stored fields match', async ({ store }, c) => {
        const col = store.collection(c());
        await store.applyBatch([
          { kind: 'cas', collection: c(), doc: { id: 'cp', generation: 1, position: 0 }, expect: null },
        ]);
        assert.deepEqual(await col.get('cp'), { id: 'cp', generation: 1, position: 0 });
        await assert.rejects(
          store.applyBatch([
            { kind: 'cas', collection: c(), doc: { id: 'cp', generation: 9, position: 9 }, expect: null },
          ]),
          (e: unknown) => e instanceof ConcurrentModificationError && e.collection === c() && e.id === 'cp',
        );
        await store.applyBatch([
          {
            kind: 'cas',
            collection: c(),
            doc: { id: 'cp', generation: 1, position: 10 },
            expect: { generation: 1, position: 0 },
          },
        ]);
        await assert.rejects(
          store.applyBatch([
            {
              kind: 'cas',
              collection: c(),
              doc: { id: 'cp', generation: 1, position: 20 },
              expect: { generation: 1, position: 0 },
            },
          ]),
          ConcurrentModificationError,
        );
        assert.deepEqual(await col.get('cp'), { id: 'cp', generation: 1, position: 10 });
        await assert.rejects(
          store.applyBatch([{ kind: 'cas', collection: c(), doc: { id: 'nope', v: 1 }, expect: { v: null } }]),
          ConcurrentModificationError,
          'an expectation on an absent document fails',
        );
        await store.applyBatch([
          {
            kind: 'cas',
            collection: c(),
            doc: { id: 'cp', generation: 1, position: 10, owner: 'x' },
            expect: { owner: null },
          },
        ]);
        assert.equal((await col.get('cp'))?.owner, 'x', 'an expected null matches a missing field');
      });

      test('cas takes once: of many concurrent cas writes over two connections, exactly one succeeds', async (fixture, c) => {
        const stores = [fixture.store, fixture.reopen ? await fixture.reopen() : fixture.store];
        const race = async (doc: (i: number) => Doc, expect: Record<string, Scalar> | null) => {
          const outcomes = await Promise.allSettled(
            Array.from({ length: 16 }, (_, i) =>
              stores[i % 2]!.applyBatch([{ kind: 'cas', collection: c(), doc: doc(i), expect }]),
            ),
          );
          for (const o of outcomes)
            if (o.status === 'rejected') assert.ok(o.reason instanceof ConcurrentModificationError, String(o.reason));
          return outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
        };
        for (let round = 0; round < 5; round++) {
          const id = `lease${round}`;
          const created = await race((i) => ({ id, v: 0, by: i }), null);
          assert.equal(created.length, 1, `round ${round}: ${created.length} inserts of one id succeeded`);
          const taken = await race((i) => ({ id, v: 1, by: i }), { v: 0 });
          assert.equal(taken.length, 1, `round ${round}: ${taken.length} replacements of one version succeeded`);
          assert.deepEqual(await stores[1]!.collection(c()).get(id), { id, v: 1, by: taken[0] });
        }
      });

      test('a rebuildable batch (a projection commit) applies, guards and checks cas like any other', async (fixture, c) => {
        const { store } = fixture;
        const rebuildable = { rebuildable: true };
        await store.applyBatch(
          [
            { kind: 'upsert', collection: c(), doc: { id: 'x', n: 1 }, guardPosition: 5 },
            { kind: 'cas', collection: c(), doc: { id: 'cp', position: 5 }, expect: null },
          ],
          rebuildable,
        );
        await store.applyBatch(
          [{ kind: 'upsert', collection: c(), doc: { id: 'x', n: 9 }, guardPosition: 4 }],
          rebuildable,
        );
        await assert.rejects(
          store.applyBatch(
            [
              { kind: 'upsert', collection: c(), doc: { id: 'y', n: 1 }, guardPosition: 6 },
              { kind: 'cas', collection: c(), doc: { id: 'cp', position: 7 }, expect: { position: 4 } },
            ],
            rebuildable,
          ),
          ConcurrentModificationError,
        );
        if (options.atomicBatches) assert.equal(await store.collection(c()).get('y'), null, 'rolled back whole');
        // Seen by another connection too (it committed, whatever the disk was told).
        const other = fixture.reopen ? await fixture.reopen() : store;
        assert.deepEqual(await other.collection(c()).get('x'), { id: 'x', n: 1, _position: 5 });
        assert.deepEqual(await other.collection(c()).get('cp'), { id: 'cp', position: 5 });
      });

      test(
        options.atomicBatches
          ? 'a failing cas or unique violation fails the batch and applies none of it'
          : 'a failing cas fails the batch with ConcurrentModificationError',
        async ({ store }, c) => {
          const col = store.collection(c());
          await store.ensureIndexes(c(), [{ fields: [['email', 1]], unique: true }]);
          await col.upsert({ id: 'cp', position: 5 });
          await col.upsert({ id: 'u1', email: 'taken' });
          await assert.rejects(
            store.applyBatch([
              { kind: 'upsert', collection: c(), doc: { id: 'w1', v: 1 }, guardPosition: 6 },
              { kind: 'delete', collection: c(), id: 'u1' },
              { kind: 'cas', collection: c(), doc: { id: 'cp', position: 7 }, expect: { position: 4 } },
            ]),
            ConcurrentModificationError,
          );
          if (options.atomicBatches) {
            assert.equal(await col.get('w1'), null, 'the upsert before the failed cas was rolled back');
            assert.ok(await col.get('u1'), 'the delete before the failed cas was rolled back');
            assert.deepEqual(await col.get('cp'), { id: 'cp', position: 5 });
            await assert.rejects(
              store.applyBatch([
                { kind: 'upsert', collection: c(), doc: { id: 'w2', v: 1 } },
                { kind: 'upsert', collection: c('other'), doc: { id: 'w3', v: 1 } },
                { kind: 'upsert', collection: c(), doc: { id: 'u2', email: 'taken' } },
              ]),
              DuplicateKeyError,
            );
            assert.equal(await col.get('w2'), null);
            assert.equal(await store.collection(c('other')).get('w3'), null);
          }
        },
      );
    });

    describe('collections', () => {
      test('listCollections shows written collections; dropCollection removes one with its data', async ({
        store,
      }, c) => {
        await store.collection(c('one')).upsert({ id: '1' });
        await store.collection(c('two')).upsert({ id: '1' });
        await store.ensureIndexes(c('three'), [{ fields: [['a', 1]] }]);
        const mine = async () => (await store.listCollections()).filter((n) => n.startsWith(c('')));
        assert.deepEqual((await mine()).sort(), [c('one'), c('three'), c('two')].sort());
        await store.dropCollection(c('one'));
        await store.dropCollection(c('never'));
        assert.deepEqual((await mine()).sort(), [c('three'), c('two')].sort());
        assert.equal(await store.collection(c('one')).get('1'), null);
        await store.collection(c('one')).upsert({ id: '2' });
        assert.deepEqual(
          (await store.collection(c('one')).find()).items,
          [{ id: '2' }],
          'a dropped collection starts empty',
        );
      });

      test('ping answers', async ({ store }) => {
        await store.ping();
      });
    });

    describe('durability', () => {
      test('documents and unique indexes survive close and reopen', async (fixture, c) => {
        if (!fixture.reopen) return;
        const col = fixture.store.collection(c());
        await fixture.store.ensureIndexes(c(), [{ fields: [['email', 1]], unique: true }]);
        await col.upsert({ id: 'a', email: 'a@x', n: 1 });
        await fixture.store.applyBatch([
          { kind: 'upsert', collection: c(), doc: { id: 'b', email: 'b@x' }, guardPosition: 4 },
        ]);
        await fixture.store.close();
        await fixture.store.close();
        const reopened = await fixture.reopen();
        const again = reopened.collection(c());
        assert.deepEqual(await again.get('a'), { id: 'a', email: 'a@x', n: 1 });
        assert.deepEqual(await again.get('b'), { id: 'b', email: 'b@x', _position: 4 });
        await assert.rejects(again.upsert({ id: 'c', email: 'a@x' }), DuplicateKeyError);
        await reopened.dropCollection(c());
      });
    });
  });
}
