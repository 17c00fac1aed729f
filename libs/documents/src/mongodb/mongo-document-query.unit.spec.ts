import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Document } from 'mongodb';
import { InvalidFilterError, type Doc, type Filter, type Sort } from '../document-store.port.js';
import { decodeCursor, encodeCursor } from '../query/document-cursor.js';
import { compareDocs, getPath, matchesFilter, normalizeSort, parseFilter } from '../query/document-filter.js';
import {
  assertCollectionName,
  casFilter,
  duplicateKey,
  fromStored,
  guardFilter,
  keysetFilter,
  pageSize,
  replacementOf,
  toIndexDescription,
  toMongoFilter,
  toMongoSort,
  toStored,
  type StoredDoc,
} from './mongo-document-query.js';

/*
 * No MongoDB server here, so the translation is checked two ways: the exact queries for simple
 * cases, and, for filters and keyset pages, against a small evaluator of the MongoDB query
 * subset the adapter emits (MongoDB's documented rules: null matches missing, type-bracketed
 * comparisons, BSON sort order null < numbers < strings < objects < booleans). The evaluator
 * must agree with the port's reference matcher on random filters, and keyset pages must
 * concatenate to the fully sorted list for random sorts.
 */

describe('MongoDB query translation', () => {
  it('translates the filter subset, `id` as `_id`', () => {
    assert.deepEqual(toMongoFilter(parseFilter(undefined)), {});
    assert.deepEqual(toMongoFilter(parseFilter({ status: 'open' })), { status: { $eq: 'open' } });
    assert.deepEqual(toMongoFilter(parseFilter({ id: 'a' })), { _id: { $eq: 'a' } });
    assert.deepEqual(
      toMongoFilter(
        parseFilter({ 'meta.n': { $gte: 2, $lt: 5 }, tag: { $in: ['x', null] }, gone: { $exists: false } }),
      ),
      {
        $and: [
          { 'meta.n': { $gte: 2 } },
          { 'meta.n': { $lt: 5 } },
          { tag: { $in: ['x', null] } },
          { gone: { $exists: false } },
        ],
      },
    );
    assert.throws(() => toMongoFilter(parseFilter({ $where: 'x' } as unknown as Filter)), InvalidFilterError);
    assert.throws(() => toMongoFilter(parseFilter({ a: { $regex: 'x' } } as unknown as Filter)), InvalidFilterError);
    assert.deepEqual(toMongoSort(normalizeSort([['created', -1]])), { created: -1, _id: 1 });
  });

  it('agrees with the reference matcher on random filters', () => {
    const random = prng(7);
    const docs = Array.from({ length: 60 }, (_, i) => randomDoc(random, i));
    for (let round = 0; round < 400; round++) {
      const filter = randomFilter(random);
      const query = toMongoFilter(parseFilter(filter));
      for (const doc of docs) {
        const stored = toStored(doc);
        assert.equal(
          evalQuery(query, stored),
          matchesFilter(doc, filter),
          `${JSON.stringify(filter)} on ${JSON.stringify(doc)}`,
        );
      }
    }
  });

  it('pages with keyset cursors: pages concatenate to the sorted list, for random sorts', () => {
    const random = prng(11);
    const docs = Array.from({ length: 80 }, (_, i) => randomDoc(random, i));
    const stored = docs.map(toStored);
    const fields = ['a', 'b', 'c.d', 'flag', 'm'];
    for (let round = 0; round < 100; round++) {
      const sort = normalizeSort(
        shuffle(random, fields)
          .slice(0, 1 + Math.floor(random() * 3))
          .map((f): [string, 1 | -1] => [f, random() < 0.5 ? 1 : -1]),
      );
      const filter: Filter = random() < 0.5 ? {} : { b: { $ne: null } };
      const expected = stored
        .filter((d) => evalQuery(toMongoFilter(parseFilter(filter)), d))
        .sort(mongoComparator(sort))
        .map((d) => d._id);
      const limit = 1 + Math.floor(random() * 9);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 200; page++) {
        let query = toMongoFilter(parseFilter(filter));
        if (cursor) {
          const keyset = keysetFilter(sort, decodeCursor(sort, cursor));
          if (!keyset) break;
          query = Object.keys(query).length ? { $and: [query, keyset] } : keyset;
        }
        const items = stored
          .filter((d) => evalQuery(query, d))
          .sort(mongoComparator(sort))
          .slice(0, limit + 1);
        const pageItems = items.slice(0, limit).map((d) => fromStored<Doc>(d));
        seen.push(...pageItems.map((d) => d.id));
        if (items.length <= limit) break;
        cursor = encodeCursor(sort, pageItems[limit - 1]!);
      }
      assert.deepEqual(seen, expected, `sort ${JSON.stringify(sort)} limit ${limit}`);
    }
  });

  it('sorts like the port reference where the port specifies the order (null < numbers < strings)', () => {
    const random = prng(3);
    const docs = Array.from({ length: 50 }, (_, i) => randomDoc(random, i)).map((d) => {
      const { flag: _flag, m: _m, ...rest } = d;
      return rest as Doc;
    });
    for (const sort of [
      normalizeSort([['a', 1]]),
      normalizeSort([
        ['b', -1],
        ['a', 1],
      ]),
      normalizeSort([['c.d', -1]]),
    ]) {
      const reference = [...docs].sort(compareDocs(sort)).map((d) => d.id);
      const mongo = docs
        .map(toStored)
        .sort(mongoComparator(sort))
        .map((d) => d._id);
      assert.deepEqual(mongo, reference);
    }
  });

  it('stores documents with _id = id, JSON-normalised, and maps them back', () => {
    const stored = toStored({
      id: 'x1',
      n: 1,
      when: new Date('2026-01-02T03:04:05Z') as unknown as string,
      skip: undefined,
      nested: { a: [1] },
    });
    assert.deepEqual(stored, { _id: 'x1', n: 1, when: '2026-01-02T03:04:05.000Z', nested: { a: [1] } });
    assert.deepEqual(replacementOf(stored), { n: 1, when: '2026-01-02T03:04:05.000Z', nested: { a: [1] } });
    assert.deepEqual(fromStored(stored), { id: 'x1', n: 1, when: '2026-01-02T03:04:05.000Z', nested: { a: [1] } });
    assert.throws(() => toStored({ id: '' }), TypeError);
    assert.throws(() => toStored({ id: 'x', _id: 'y' }), /reserved/);
  });

  it('builds cas and guard conditions', () => {
    assert.deepEqual(casFilter('k1', {}), { _id: 'k1' });
    assert.deepEqual(casFilter('k1', { version: 3, owner: null }), {
      $and: [{ _id: 'k1' }, { version: { $eq: 3 } }, { owner: { $eq: null } }],
    });
    const guard = guardFilter('d1', 42);
    assert.deepEqual(guard, { _id: 'd1', $or: [{ _position: { $lt: 42 } }, { _position: { $exists: false } }] });
    assert.equal(evalQuery(guard, { _id: 'd1' }), true, 'no _position yet: written');
    assert.equal(evalQuery(guard, { _id: 'd1', _position: 41 }), true, 'older: written');
    assert.equal(evalQuery(guard, { _id: 'd1', _position: 42 }), false, 'same event again: skipped');
    assert.equal(evalQuery(guard, { _id: 'd1', _position: 50 }), false, 'newer stored: skipped');
  });

  it('recognises duplicate keys and tells _id from declared unique indexes', () => {
    assert.equal(duplicateKey({ code: 11000, keyPattern: { _id: 1 } }), 'id');
    assert.equal(duplicateKey({ code: 11000, keyPattern: { email: 1 } }), 'unique');
    assert.equal(
      duplicateKey({
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: t.c index: _id_ dup key: { _id: "a" }',
      }),
      'id',
    );
    assert.equal(
      duplicateKey({
        code: 11000,
        errmsg: 'E11000 duplicate key error collection: t.c index: email_1 dup key: { email: "a" }',
      }),
      'unique',
    );
    assert.equal(duplicateKey({ code: 121 }), null);
    assert.equal(duplicateKey(null), null);
  });

  it('maps index specs and validates names and page sizes like the embedded adapter', () => {
    assert.deepEqual(
      toIndexDescription({
        fields: [
          ['status', 1],
          ['created', -1],
        ],
      }),
      { key: { status: 1, created: -1 } },
    );
    assert.deepEqual(toIndexDescription({ fields: [['email', 1]], unique: true }), {
      key: { email: 1 },
      unique: true,
      partialFilterExpression: { email: { $exists: true } },
    });
    assert.deepEqual(
      toIndexDescription({
        fields: [
          ['tenant', 1],
          ['id', 1],
        ],
      }),
      { key: { tenant: 1, _id: 1 } },
    );
    assert.equal(toIndexDescription({ fields: [['id', 1]] }), null, '_id is always indexed');
    assert.throws(() => toIndexDescription({ fields: [] }), InvalidFilterError);
    assert.throws(() => toIndexDescription({ fields: [['a b', 1]] }), InvalidFilterError);

    assertCollectionName('rm_accounts.v2');
    assert.throws(() => assertCollectionName('bad name'), TypeError);
    assert.throws(() => assertCollectionName('$cmd'), TypeError);
    assert.throws(() => assertCollectionName('system.users'), TypeError);

    assert.equal(pageSize(undefined), 100);
    assert.equal(pageSize(5000), 1000);
    assert.throws(() => pageSize(0), InvalidFilterError);
    assert.throws(() => pageSize(1.5), InvalidFilterError);
  });
});

// --- a small evaluator of the MongoDB query subset the adapter emits -------------------------

function typeClass(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  if (Array.isArray(value)) return 4;
  if (typeof value === 'object') return 3;
  if (typeof value === 'boolean') return 5;
  throw new Error(`unexpected value ${String(value)}`);
}

function compareSameType(a: unknown, b: unknown): number {
  if (typeof a === 'boolean') return Number(a) - Number(b as boolean);
  if (typeof a === 'number' || typeof a === 'string') return a < (b as typeof a) ? -1 : a > (b as typeof a) ? 1 : 0;
  return JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0;
}

function bsonCompare(a: unknown, b: unknown): number {
  const ta = typeClass(a);
  const tb = typeClass(b);
  if (ta !== tb) return ta - tb;
  return ta === 0 ? 0 : compareSameType(a, b);
}

function mongoEquals(value: unknown, expected: unknown): boolean {
  if (expected === null) return value === null || value === undefined;
  return typeClass(value) === typeClass(expected) && compareSameType(value, expected) === 0;
}

const TYPE_ALIASES: Record<string, (v: unknown) => boolean> = {
  number: (v) => typeof v === 'number',
  string: (v) => typeof v === 'string',
  object: (v) => v !== null && typeof v === 'object' && !Array.isArray(v),
  bool: (v) => typeof v === 'boolean',
};

function evalField(value: unknown, condition: unknown): boolean {
  if (condition === null || typeof condition !== 'object' || !Object.keys(condition).every((k) => k.startsWith('$'))) {
    return mongoEquals(value, condition);
  }
  return Object.entries(condition as Record<string, unknown>).every(([op, arg]) => {
    switch (op) {
      case '$eq':
        return mongoEquals(value, arg);
      case '$ne':
        return !mongoEquals(value, arg);
      case '$in':
        return (arg as unknown[]).some((v) => mongoEquals(value, v));
      case '$exists':
        return (value !== undefined) === arg;
      case '$type':
        return (arg as string[]).some((t) => TYPE_ALIASES[t]!(value));
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        if (typeClass(value) !== typeClass(arg)) return false;
        const c = compareSameType(value, arg);
        return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
      }
      default:
        throw new Error(`evaluator: unsupported ${op}`);
    }
  });
}

function evalQuery(query: Document, doc: StoredDoc): boolean {
  return Object.entries(query).every(([key, condition]) => {
    if (key === '$and') return (condition as Document[]).every((q) => evalQuery(q, doc));
    if (key === '$or') return (condition as Document[]).some((q) => evalQuery(q, doc));
    return evalField(getPath(doc, key), condition);
  });
}

function mongoComparator(sort: Sort): (a: StoredDoc, b: StoredDoc) => number {
  const keys = Object.entries(toMongoSort(sort)) as Array<[string, 1 | -1]>;
  return (a, b) => {
    for (const [path, direction] of keys) {
      const c = bsonCompare(getPath(a, path), getPath(b, path));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}

// --- random data --------------------------------------------------------------------------

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

function shuffle<T>(random: () => number, values: readonly T[]): T[] {
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const VALUES = [undefined, null, 0, 1, 2, 2.5, -3, '', 'a', 'b', 'ab', 'B', '10', true, false] as const;

function randomDoc(random: () => number, i: number): Doc {
  const doc: Doc = { id: `d${String(i).padStart(3, '0')}${pick(random, ['', 'x', 'y'])}` };
  const a = pick(
    random,
    VALUES.filter((v) => typeof v !== 'boolean'),
  );
  if (a !== undefined) doc.a = a;
  const b = pick(random, [undefined, null, 1, 2, 'a', 'b']);
  if (b !== undefined) doc.b = b;
  const d = pick(random, [undefined, null, 5, 7, 'x', 'y']);
  if (random() < 0.8) doc.c = d === undefined ? {} : { d };
  const flag = pick(random, [undefined, true, false]);
  if (flag !== undefined) doc.flag = flag;
  // Every type at once, objects included: pagination must neither loop nor skip over them.
  const m = pick(random, [...VALUES, { o: 1 }, { o: 2 }]);
  if (m !== undefined) doc.m = m;
  return doc;
}

function randomFilter(random: () => number): Filter {
  const filter: Filter = {};
  const n = Math.floor(random() * 3);
  for (let i = 0; i < n; i++) {
    const path = pick(random, ['a', 'b', 'c.d', 'flag', 'm', 'missing', 'id']);
    const scalar = () =>
      pick(
        random,
        VALUES.filter((v) => v !== undefined),
      ) as string | number | boolean | null;
    const bound = () => pick(random, [0, 1, 2, 'a', 'b', 'd050']);
    switch (pick(random, ['eq', '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$exists'])) {
      case 'eq':
        filter[path] = path === 'id' ? pick(random, ['d001', 'd002x', 'nope']) : scalar();
        break;
      case '$in':
        filter[path] = { $in: [scalar(), scalar()] };
        break;
      case '$exists':
        filter[path] = { $exists: random() < 0.5 };
        break;
      case '$gt':
        filter[path] = { $gt: bound() };
        break;
      case '$gte':
        filter[path] = { $gte: bound() };
        break;
      case '$lt':
        filter[path] = { $lt: bound() };
        break;
      case '$lte':
        filter[path] = { $lte: bound() };
        break;
      case '$ne':
        filter[path] = { $ne: scalar() };
        break;
      default:
        filter[path] = { $eq: scalar() };
    }
  }
  return filter;
}
