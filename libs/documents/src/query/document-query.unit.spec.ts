import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidFilterError } from '../document-store.port.js';
import { decodeCursor, encodeCursor } from './document-cursor.js';
import { compareDocs, compareStrings, compareValues, normalizeSort, parseFilter } from './document-filter.js';

describe('document query helpers', () => {
  it('strings compare by code point, like SQLite BINARY and MongoDB (not by UTF-16 unit)', () => {
    const ordered = ['', 'A', 'Z', 'a', 'b', 'é', '\uFB01', '😀'];
    const sorted = [...ordered].reverse().sort(compareStrings);
    assert.deepEqual(sorted, ordered);
    assert.ok('\uFB01' > '😀', 'plain JS order differs here: the surrogate pair is below U+FB01 in UTF-16');
  });

  it('values order: missing = null < numbers < strings; sort keys end with id', () => {
    assert.deepEqual([3, 'a', null, -1, 'B'].sort(compareValues), [null, -1, 3, 'B', 'a']);
    assert.equal(compareValues(undefined, null), 0);
    assert.deepEqual(normalizeSort([['a', -1]]), [
      ['a', -1],
      ['id', 1],
    ]);
    assert.deepEqual(
      normalizeSort([
        ['id', -1],
        ['a', 1],
      ]),
      [['id', -1]],
      'nothing after id can matter',
    );
    const order = compareDocs(normalizeSort([['a', -1]]));
    assert.deepEqual(
      [{ id: '2', a: 1 }, { id: '1' }, { id: '3', a: 1 }, { id: '0', a: 'x' }].sort(order).map((d) => d.id),
      ['0', '2', '3', '1'],
    );
  });

  it('parses a filter into ANDed conditions and rejects the rest', () => {
    assert.deepEqual(parseFilter({ a: 1, 'b.c': { $gte: 'x', $ne: null }, d: { $in: [1, null] } }), [
      { path: 'a', op: '$eq', value: 1 },
      { path: 'b.c', op: '$gte', value: 'x' },
      { path: 'b.c', op: '$ne', value: null },
      { path: 'd', op: '$in', values: [1, null] },
    ]);
    assert.throws(() => parseFilter({ a: { $nin: [1] } } as never), InvalidFilterError);
    assert.throws(() => parseFilter({ 'a.$b': 1 }), InvalidFilterError);
  });

  it('a cursor round-trips its sort values and belongs to its sort', () => {
    const sort = normalizeSort([['at', -1]]);
    const cursor = encodeCursor(sort, { id: 'x1', at: '2026-01-01' });
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodeCursor(sort, cursor), ['2026-01-01', 'x1']);
    assert.deepEqual(
      decodeCursor(normalizeSort([['missing', 1]]), encodeCursor(normalizeSort([['missing', 1]]), { id: 'y' })),
      [null, 'y'],
    );
    assert.throws(() => decodeCursor(normalizeSort([['at', 1]]), cursor), /another sort order/);
    assert.throws(() => decodeCursor(sort, 'garbage!'), InvalidFilterError);
  });
});
