import type { Document, IndexDescription } from 'mongodb';
import { InvalidFilterError, type Doc, type IndexSpec, type Scalar, type Sort } from '../document-store.port.js';
import { assertValidPath, type Condition } from '../query/document-filter.js';

/*
 * The port's filter language (already a subset of MongoDB's) as MongoDB queries, plus the
 * document and keyset mappings. Pure, so it is unit-tested without a server.
 *
 * Semantics line up with the port's reference (query/document-filter.ts) because MongoDB's own
 * rules are the model: `{f: null}` matches null and missing, `$ne` matches missing, `$exists`
 * tells missing from null, and comparisons are type-bracketed (`$gt: 5` never matches "6").
 * Documents are stored with `_id = id` (the port's `id` is not stored twice); the path `id`
 * means `_id` everywhere (filters, sorts, indexes, cas).
 */

export function mongoPath(path: string): string {
  if (path === 'id') return '_id';
  assertValidPath(path);
  return path;
}

function conditionQuery(condition: Condition): Document {
  const path = mongoPath(condition.path);
  switch (condition.op) {
    case '$in':
      return { [path]: { $in: condition.values } };
    case '$exists':
      return { [path]: { $exists: condition.value } };
    default:
      return { [path]: { [condition.op]: condition.value } };
  }
}

/** The query for parsed (validated) conditions; one `$and` entry each, so paths may repeat. */
export function toMongoFilter(conditions: Condition[]): Document {
  if (conditions.length === 0) return {};
  if (conditions.length === 1) return conditionQuery(conditions[0]!);
  return { $and: conditions.map(conditionQuery) };
}

export function toMongoSort(sort: Sort): Document {
  const out: Document = {};
  for (const [field, direction] of sort) out[mongoPath(field)] = direction;
  return out;
}

/*
 * Keyset pagination. MongoDB orders values of different types by type (null and missing <
 * numbers < strings < objects < arrays < … < booleans) but its comparison operators only
 * compare within a type, so "after v" is "greater within v's type, or of a later type".
 * The port only specifies null < numbers < strings; objects and booleans are ordered as
 * MongoDB sorts them so pagination never loops or skips either way. Arrays as sort keys are
 * not supported (MongoDB sorts them by an element).
 */
const LATER_TYPES: Record<'null' | 'number' | 'string' | 'object' | 'bool', string[]> = {
  null: ['number', 'string', 'object', 'bool'],
  number: ['string', 'object', 'bool'],
  string: ['object', 'bool'],
  object: ['bool'],
  bool: [],
};
const EARLIER_TYPES: Record<'null' | 'number' | 'string' | 'object' | 'bool', string[]> = {
  null: [],
  number: ['null'],
  string: ['null', 'number'],
  object: ['null', 'number', 'string'],
  bool: ['null', 'number', 'string', 'object'],
};

function typeOf(value: unknown): 'null' | 'number' | 'string' | 'object' | 'bool' {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'object' && !Array.isArray(value)) return 'object';
  throw new InvalidFilterError('Malformed cursor');
}

/** Values of the given types; 'null' means null or missing (as MongoDB sorts them). */
function ofTypes(path: string, types: string[]): Document[] {
  const out: Document[] = [];
  if (types.includes('null')) out.push({ [path]: null });
  const rest = types.filter((t) => t !== 'null');
  if (rest.length > 0) out.push({ [path]: { $type: rest } });
  return out;
}

/** Documents whose value at `path` sorts strictly after `value` in `direction`. */
function afterValue(path: string, direction: 1 | -1, value: unknown): Document[] {
  const type = typeOf(value);
  if (direction === 1) {
    const sameType: Document[] =
      type === 'null' ? [] : type === 'bool' ? (value ? [] : [{ [path]: true }]) : [{ [path]: { $gt: value } }];
    return [...sameType, ...ofTypes(path, LATER_TYPES[type])];
  }
  const sameType: Document[] =
    type === 'null' ? [] : type === 'bool' ? (value ? [{ [path]: false }] : []) : [{ [path]: { $lt: value } }];
  return [...sameType, ...ofTypes(path, EARLIER_TYPES[type])];
}

function equalTo(path: string, value: unknown): Document {
  return { [path]: { $eq: value ?? null } };
}

/**
 * The condition "after the cursor" for a normalized sort (the last key is `id`) and the
 * cursor's values: an `$or` over the keys, each branch equal on the keys before it and after
 * the cursor on its own key. Null when nothing can come after (e.g. past `true` descending
 * on a lone boolean key, which cannot happen with the `id` tie-breaker).
 */
export function keysetFilter(sort: Sort, values: unknown[]): Document | null {
  const branches: Document[] = [];
  for (let i = 0; i < sort.length; i++) {
    const prefix = sort.slice(0, i).map(([field], j) => equalTo(mongoPath(field), values[j]));
    const [field, direction] = sort[i]!;
    for (const after of afterValue(mongoPath(field), direction, values[i])) {
      branches.push(prefix.length === 0 ? after : { $and: [...prefix, after] });
    }
  }
  if (branches.length === 0) return null;
  return branches.length === 1 ? branches[0]! : { $or: branches };
}

/**
 * The index for a spec, or null for one MongoDB has anyway (`_id` alone).
 *
 * A unique index only constrains documents that have every field of its key (a partial index
 * on `$exists`): MongoDB would otherwise index a missing field as null and let only one
 * document lack it, where SQLite treats NULLs as distinct. A query uses such an index when it
 * constrains those fields (an equality does), which is what unique lookups do.
 */
export function toIndexDescription(spec: IndexSpec): IndexDescription | null {
  if (!spec.fields?.length) throw new InvalidFilterError('An index needs at least one field');
  const key: Record<string, 1 | -1> = {};
  for (const [field, direction] of spec.fields) {
    if (direction !== 1 && direction !== -1)
      throw new InvalidFilterError(`Index direction of ${field} must be 1 or -1`);
    key[mongoPath(field)] = direction;
  }
  const fields = Object.keys(key);
  if (fields.length === 1 && fields[0] === '_id') return null;
  if (!spec.unique) return { key };
  const partialFilterExpression: Document = {};
  for (const field of fields) partialFilterExpression[field] = { $exists: true };
  return { key, unique: true, partialFilterExpression };
}

/** A document as stored: the port's `id` is `_id`. */
export interface StoredDoc {
  _id: string;
  [field: string]: unknown;
}

/**
 * A document as stored: JSON-normalised first (undefined dropped, dates as ISO strings), so
 * both adapters store and return the same values; then `id` becomes `_id`.
 */
export function toStored(doc: Doc): StoredDoc {
  if (!doc || typeof doc.id !== 'string' || doc.id.length === 0)
    throw new TypeError('A document needs a non-empty string id');
  const json = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  if ('_id' in json) throw new TypeError(`Document ${doc.id}: the field _id is reserved by the MongoDB adapter`);
  const { id, ...rest } = json;
  return { _id: id as string, ...rest };
}

/** The replacement of a replaceOne: `_id` comes from the filter (equal, and immutable anyway). */
export function replacementOf(stored: StoredDoc): Omit<StoredDoc, '_id'> {
  const { _id, ...rest } = stored;
  return rest;
}

export function fromStored<T extends Doc>(stored: StoredDoc): T {
  const { _id, ...rest } = stored;
  return { id: _id, ...rest } as T;
}

/** cas expectations: every top-level field equal, an expected null also matching a missing field. */
export function casFilter(id: string, expect: Record<string, Scalar>): Document {
  const and: Document[] = [{ _id: id }];
  for (const [field, value] of Object.entries(expect)) and.push(equalTo(mongoPath(field), value));
  return and.length === 1 ? and[0]! : { $and: and };
}

/** Guarded projection writes apply only over an older `_position` (or none). */
export function guardFilter(id: string, guardPosition: number): Document {
  return { _id: id, $or: [{ _position: { $lt: guardPosition } }, { _position: { $exists: false } }] };
}

/** Duplicate key (E11000), and whether it hit the `_id` index rather than a declared unique one. */
export function duplicateKey(error: unknown): 'id' | 'unique' | null {
  const e = error as { code?: unknown; errmsg?: unknown; message?: unknown; keyPattern?: unknown } | null;
  if (!e || (e.code !== 11000 && e.code !== 11001)) return null;
  if (e.keyPattern && typeof e.keyPattern === 'object') {
    const keys = Object.keys(e.keyPattern);
    return keys.length === 1 && keys[0] === '_id' ? 'id' : 'unique';
  }
  const message = String(e.errmsg ?? e.message ?? '');
  return /index: _id_ /.test(message) ? 'id' : 'unique';
}

const COLLECTION_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,119}$/;

/** The port's collection names (the embedded adapter's rule); MongoDB reserves `system.`. */
export function assertCollectionName(name: string): void {
  if (typeof name !== 'string' || !COLLECTION_NAME.test(name) || name.startsWith('system.')) {
    throw new TypeError(`Invalid collection name ${JSON.stringify(name)}`);
  }
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidFilterError('limit must be a positive integer');
  return Math.min(limit, 1000);
}
