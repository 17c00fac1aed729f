import type Database from 'better-sqlite3';
import {
  InvalidFilterError,
  type Doc,
  type Filter,
  type FindOptions,
  type FindResult,
  type IndexSpec,
  type Sort,
} from '../document-store.port.js';
import { decodeCursor, encodeCursor } from '../query/document-cursor.js';
import { assertValidPath, isValidPath, normalizeSort, parseFilter, type Condition } from '../query/document-filter.js';

/**
 * SQL for the filter language over `doc_*` tables (`id TEXT PRIMARY KEY, body BLOB` = JSONB).
 *
 * Every field is read with exactly the expression `fieldSql` returns — declared indexes are
 * built on the same text, which is what lets SQLite's planner match them (it compares
 * expressions structurally; a path bound as a parameter would never match an index). Paths are
 * validated identifiers, so inlining them as literals is safe.
 *
 * json_extract returns typed SQL values (INTEGER/REAL, TEXT, NULL) but maps JSON true/false to
 * 1/0 and null and missing both to NULL; json_type tells them apart where the port's semantics
 * need it (numbers are not booleans, `$exists` is not `$ne: null`). SQLite orders NULL <
 * numbers < text, which is the port's sort order, so ORDER BY needs no help.
 */

export type SqlParam = string | number | null;

export interface SqlFragment {
  sql: string;
  params: SqlParam[];
}

export interface KeysetSegment extends SqlFragment {
  /** Leading sort keys the segment pins to the cursor's values (constant: left out of ORDER BY). */
  fixedKeys: number;
}

export function fieldSql(path: string): string {
  if (path === 'id') return 'id';
  assertValidPath(path);
  return `json_extract(body, '$.${path}')`;
}

function typeSql(path: string): string {
  return `json_type(body, '$.${path}')`;
}

/** A JS value as SQLite sees it through json_extract (true → 1, objects → JSON text). */
export function toSqlValue(value: unknown): SqlParam {
  if (value === undefined || value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' || typeof value === 'string') return value;
  return JSON.stringify(value);
}

const NUMERIC = `IN ('integer','real')`;

function equalsSql(path: string, value: string | number | boolean | null, params: SqlParam[]): string {
  const x = fieldSql(path);
  if (path === 'id') {
    if (typeof value !== 'string') return '0';
    params.push(value);
    return 'id = ?';
  }
  if (value === null) return `${x} IS NULL`;
  if (typeof value === 'string') {
    params.push(value);
    return `${x} = ?`;
  }
  if (typeof value === 'number') {
    params.push(value);
    return `(${x} = ? AND ${typeSql(path)} ${NUMERIC})`;
  }
  // `x = 1` first so an index on the field narrows the rows; json_type then rules out numbers.
  params.push(value ? 1 : 0);
  return `(${x} = ? AND ${typeSql(path)} = '${value ? 'true' : 'false'}')`;
}

function conditionSql(condition: Condition, params: SqlParam[]): string {
  const { path } = condition;
  const x = fieldSql(path);
  switch (condition.op) {
    case '$eq':
      return equalsSql(path, condition.value, params);
    case '$ne': {
      if (condition.value === null) return path === 'id' ? '1' : `${x} IS NOT NULL`;
      const eq = equalsSql(path, condition.value, params);
      return path === 'id' ? `NOT (${eq})` : `(${x} IS NULL OR NOT (${eq}))`;
    }
    case '$exists':
      if (path === 'id') return condition.value ? '1' : '0';
      return `${typeSql(path)} IS ${condition.value ? 'NOT NULL' : 'NULL'}`;
    case '$in': {
      const plain = condition.values.filter(
        (v): v is string | number => typeof v === 'string' || typeof v === 'number',
      );
      const parts: string[] = [];
      if (plain.length > 0) {
        if (path === 'id') {
          const strings = plain.filter((v) => typeof v === 'string');
          if (strings.length > 0) {
            params.push(...strings);
            parts.push(`id IN (${strings.map(() => '?').join(',')})`);
          }
        } else {
          params.push(...plain);
          const guard = plain.some((v) => typeof v === 'number')
            ? ` AND ${typeSql(path)} IN ('integer','real','text')`
            : '';
          parts.push(`(${x} IN (${plain.map(() => '?').join(',')})${guard})`);
        }
      }
      for (const v of condition.values) {
        if (v === null || typeof v === 'boolean') parts.push(equalsSql(path, v, params));
      }
      if (parts.length === 0) return '0';
      return parts.length === 1 ? parts[0]! : `(${parts.join(' OR ')})`;
    }
    default: {
      const op = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[condition.op];
      const bound = condition.value as string | number;
      if (typeof bound === 'number') {
        if (path === 'id') return '0';
        params.push(bound);
        // Text sorts above every number: `x < ''` closes the range for an index scan.
        const upper = op === '>' || op === '>=' ? ` AND ${x} < ''` : '';
        return `(${x} ${op} ?${upper} AND ${typeSql(path)} ${NUMERIC})`;
      }
      params.push(bound);
      // Numbers sort below every text: `x >= ''` keeps them out of a `$lt` on strings.
      const lower = op === '<' || op === '<=' ? ` AND ${x} >= ''` : '';
      return path === 'id' ? `(id ${op} ?)` : `(${x} ${op} ?${lower} AND ${typeSql(path)} = 'text')`;
    }
  }
}

export function whereSql(conditions: Condition[]): SqlFragment {
  const params: SqlParam[] = [];
  if (conditions.length === 0) return { sql: '1', params };
  return { sql: conditions.map((c) => conditionSql(c, params)).join(' AND '), params };
}

export function orderBySql(sort: Sort): string {
  return sort.map(([field, direction]) => `${fieldSql(field)} ${direction === 1 ? 'ASC' : 'DESC'}`).join(', ');
}

/**
 * Keyset pagination as a list of WHERE fragments, each an AND of equalities and one range, in
 * result order: rows sharing the cursor's first n-1 keys and after it on key n come first, then
 * those sharing n-2 keys, and so on. Each fragment is a plain index seek, where one big OR of
 * the same conditions would make SQLite scan the index from the start. Null handling follows
 * the sort order: NULL first ascending, last descending. The pinned keys are dropped from the
 * segment's ORDER BY: the planner does not always see they are constant and would sort.
 */
export function keysetSegments(sort: Sort, cursorValues: unknown[]): KeysetSegment[] {
  const segments: KeysetSegment[] = [];
  for (let i = sort.length - 1; i >= 0; i--) {
    const prefix: string[] = [];
    const prefixParams: SqlParam[] = [];
    for (let j = 0; j < i; j++) {
      const v = toSqlValue(cursorValues[j]);
      const x = fieldSql(sort[j]![0]);
      if (v === null) prefix.push(`${x} IS NULL`);
      else {
        prefix.push(`${x} = ?`);
        prefixParams.push(v);
      }
    }
    const [field, direction] = sort[i]!;
    const x = fieldSql(field);
    const c = toSqlValue(cursorValues[i]);
    const after: KeysetSegment[] = [];
    if (direction === 1) {
      after.push(
        c === null
          ? { sql: `${x} IS NOT NULL`, params: [], fixedKeys: i }
          : { sql: `${x} > ?`, params: [c], fixedKeys: i },
      );
    } else if (c !== null) {
      after.push({ sql: `${x} < ?`, params: [c], fixedKeys: i });
      if (field !== 'id') after.push({ sql: `${x} IS NULL`, params: [], fixedKeys: i + 1 });
    }
    for (const a of after) {
      segments.push({
        sql: [...prefix, a.sql].join(' AND '),
        params: [...prefixParams, ...a.params],
        fixedKeys: a.fixedKeys,
      });
    }
  }
  return segments;
}

export function indexColumnsSql(spec: IndexSpec): string {
  return spec.fields.map(([field, direction]) => `${fieldSql(field)} ${direction === -1 ? 'DESC' : 'ASC'}`).join(', ');
}

export interface CompiledFind {
  statement: Database.Statement;
  sort: Sort;
}

/**
 * The shape of a find whose filter is flat string equality (`{a: 'x', b: 'y'}`) with valid
 * paths and a well-formed sort, without a cursor: a key naming collection, fields, sort and
 * limit (paths cannot contain the separators, so keys are unambiguous), and the values to bind.
 * Anything else (operators, other value types, a cursor) has no shape and takes the full path.
 */
export function equalityShape(
  collection: string,
  filter: Filter | undefined,
  sort: Sort | undefined,
  limit: number,
): { key: string; params: string[] } | undefined {
  let key = `${collection}|${limit}|`;
  const params: string[] = [];
  if (filter !== undefined) {
    if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) return undefined;
    for (const path of Object.keys(filter)) {
      const value = (filter as Record<string, unknown>)[path];
      if (typeof value !== 'string' || !isValidPath(path)) return undefined;
      key += `${path},`;
      params.push(value);
    }
  }
  key += '|';
  if (sort !== undefined) {
    if (!Array.isArray(sort)) return undefined;
    for (const entry of sort) {
      if (!Array.isArray(entry) || entry.length !== 2) return undefined;
      const [field, direction] = entry as [unknown, unknown];
      if (typeof field !== 'string' || !isValidPath(field) || (direction !== 1 && direction !== -1)) return undefined;
      key += `${field}${direction === 1 ? '+' : '-'}`;
    }
  }
  return { key, params };
}

/** A page of at most `limit` items (`items` holds up to one more, which says there are more). */
export function page(items: Doc[], limit: number, sort: Sort): FindResult<Doc> {
  if (items.length <= limit) return { items, nextCursor: null };
  items.length = limit;
  return { items, nextCursor: encodeCursor(sort, items[limit - 1]!) };
}

export function pageSize(limit: number | undefined): number {
  if (limit === undefined) return 100;
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidFilterError('limit must be a positive integer');
  return Math.min(limit, 1000);
}

/** The statements of one find on `table`: one, or one per keyset segment after a cursor. */
export function findStatements(
  table: string,
  filter: Filter | undefined,
  options: FindOptions | undefined,
): SqlFragment[] {
  const sort = normalizeSort(options?.sort);
  const where = whereSql(parseFilter(filter));
  const segments = options?.after
    ? keysetSegments(sort, decodeCursor(sort, options.after))
    : [{ sql: '1', params: [], fixedKeys: 0 }];
  return segments.map((segment) => ({
    sql: `SELECT json(body) FROM "${table}" WHERE (${where.sql}) AND (${segment.sql}) ORDER BY ${orderBySql(sort.slice(segment.fixedKeys))}`,
    params: [...where.params, ...segment.params],
  }));
}
