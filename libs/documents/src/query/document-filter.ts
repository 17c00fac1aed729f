import { InvalidFilterError, type Doc, type Filter, type Scalar, type Sort } from '../document-store.port.js';

/**
 * The filter language of the port, parsed once and checked (both adapters validate through
 * here so they reject the same filters), plus a reference matcher and comparator in plain JS.
 * The projection context uses those on its pending writes, so they must agree with the stores.
 */

export type ComparisonOp = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
export type Condition =
  | { path: string; op: ComparisonOp; value: Scalar }
  | { path: string; op: '$in'; values: Scalar[] }
  | { path: string; op: '$exists'; value: boolean };

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$exists']);
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function isValidPath(path: string): boolean {
  return path.length > 0 && path.length <= 200 && path.split('.').every((s) => SEGMENT.test(s));
}

export function assertValidPath(path: string): void {
  if (!isValidPath(path)) throw new InvalidFilterError(`Invalid field path "${path}": use dot-separated identifiers`);
}

function isScalar(value: unknown): value is Scalar {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function scalar(path: string, op: string, value: unknown): Scalar {
  if (!isScalar(value))
    throw new InvalidFilterError(`${path}.${op}: expected a string, finite number, boolean or null`);
  return value;
}

/** Validates a filter and flattens it into ANDed conditions. Throws InvalidFilterError. */
export function parseFilter(filter: Filter | undefined): Condition[] {
  if (filter === undefined) return [];
  if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
    throw new InvalidFilterError('A filter is an object of field conditions');
  }
  const conditions: Condition[] = [];
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) throw new InvalidFilterError(`Unsupported top-level operator ${path}`);
    assertValidPath(path);
    if (condition === undefined) throw new InvalidFilterError(`${path}: undefined is not a value`);
    if (condition === null || typeof condition !== 'object') {
      conditions.push({ path, op: '$eq', value: scalar(path, '$eq', condition) });
      continue;
    }
    if (Array.isArray(condition)) throw new InvalidFilterError(`${path}: array equality is not supported`);
    const entries = Object.entries(condition);
    if (entries.length === 0) throw new InvalidFilterError(`${path}: empty condition`);
    for (const [op, value] of entries) {
      if (!OPERATORS.has(op)) {
        throw new InvalidFilterError(
          op.startsWith('$') ? `${path}: unsupported operator ${op}` : `${path}: object equality is not supported`,
        );
      }
      if (value === undefined) throw new InvalidFilterError(`${path}.${op}: undefined is not a value`);
      switch (op) {
        case '$in':
          if (!Array.isArray(value)) throw new InvalidFilterError(`${path}.$in: expected an array`);
          if (value.length > 1000) throw new InvalidFilterError(`${path}.$in: at most 1000 values`);
          conditions.push({ path, op, values: value.map((v) => scalar(path, op, v)) });
          break;
        case '$exists':
          if (typeof value !== 'boolean') throw new InvalidFilterError(`${path}.$exists: expected true or false`);
          conditions.push({ path, op, value });
          break;
        case '$gt':
        case '$gte':
        case '$lt':
        case '$lte':
          if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
            throw new InvalidFilterError(`${path}.${op}: expected a string or a finite number`);
          }
          conditions.push({ path, op, value });
          break;
        default:
          conditions.push({ path, op: op as ComparisonOp, value: scalar(path, op, value) });
      }
    }
  }
  return conditions;
}

/** Sort keys with the `id` tie-breaker appended (unless `id` is sorted on already). */
export function normalizeSort(sort: Sort | undefined): Sort {
  const keys: Sort = [];
  for (const entry of sort ?? []) {
    if (!Array.isArray(entry) || entry.length !== 2) throw new InvalidFilterError('A sort key is [field, 1 | -1]');
    const [field, direction] = entry;
    assertValidPath(field);
    if (direction !== 1 && direction !== -1) throw new InvalidFilterError(`Sort direction of ${field} must be 1 or -1`);
    if (keys.some(([f]) => f === field)) throw new InvalidFilterError(`${field} is sorted on twice`);
    keys.push([field, direction]);
    if (field === 'id') return keys;
  }
  keys.push(['id', 1]);
  return keys;
}

/** The value at a dotted path; undefined when missing (or when an intermediate is not an object). */
export function getPath(doc: unknown, path: string): unknown {
  let current: unknown = doc;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function equals(value: unknown, expected: Scalar): boolean {
  if (expected === null) return value === undefined || value === null;
  return value === expected;
}

/** Strings order by code point (= UTF-8 byte order, as SQLite BINARY and MongoDB compare them). */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (a code point above U+FFFF) sorts after every BMP code unit.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function inRange(value: unknown, op: '$gt' | '$gte' | '$lt' | '$lte', bound: string | number): boolean {
  let c: number;
  if (typeof bound === 'number') {
    if (typeof value !== 'number') return false;
    c = value < bound ? -1 : value > bound ? 1 : 0;
  } else {
    if (typeof value !== 'string') return false;
    c = compareStrings(value, bound);
  }
  switch (op) {
    case '$gt':
      return c > 0;
    case '$gte':
      return c >= 0;
    case '$lt':
      return c < 0;
    case '$lte':
      return c <= 0;
  }
}

export function matchesConditions(doc: Doc, conditions: Condition[]): boolean {
  for (const condition of conditions) {
    const value = getPath(doc, condition.path);
    let ok: boolean;
    switch (condition.op) {
      case '$eq':
        ok = equals(value, condition.value);
        break;
      case '$ne':
        ok = !equals(value, condition.value);
        break;
      case '$in':
        ok = condition.values.some((v) => equals(value, v));
        break;
      case '$exists':
        ok = (value !== undefined) === condition.value;
        break;
      default:
        ok = inRange(value, condition.op, condition.value as string | number);
    }
    if (!ok) return false;
  }
  return true;
}

/** Reference semantics of a filter, in memory. Throws InvalidFilterError like the stores. */
export function matchesFilter(doc: Doc, filter: Filter | undefined): boolean {
  return matchesConditions(doc, parseFilter(filter));
}

function typeRank(value: unknown): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') return 1;
  if (typeof value === 'string') return 2;
  return 3;
}

/** Order of two sort-key values: missing = null < numbers < strings < anything else. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1) return (a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0;
  if (ra === 2) return compareStrings(a as string, b as string);
  return 0;
}

/** Comparator of documents for a normalized sort (see normalizeSort). */
export function compareDocs(sort: Sort): (a: Doc, b: Doc) => number {
  return (a, b) => {
    for (const [field, direction] of sort) {
      const c = compareValues(getPath(a, field), getPath(b, field));
      if (c !== 0) return c * direction;
    }
    return 0;
  };
}
