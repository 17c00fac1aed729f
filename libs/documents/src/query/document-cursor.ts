import { InvalidFilterError, type Doc, type Sort } from '../document-store.port.js';
import { getPath } from './document-filter.js';

/**
 * Keyset cursors: the sort-key values of the last item of a page (missing = null), the sort they
 * belong to, base64url JSON. Opaque to callers; shared by the adapters and the projection context
 * so a context can continue a page that mixes stored and pending documents.
 */
interface CursorBody {
  /** Sort signature, e.g. `created_at:-1,id:1`: a cursor is only valid with its own sort. */
  s: string;
  /** One value per normalized sort key, `id` included. */
  v: unknown[];
}

function signature(sort: Sort): string {
  return sort.map(([f, d]) => `${f}:${d}`).join(',');
}

/** Cursor after `doc` for a normalized sort (see normalizeSort). */
export function encodeCursor(sort: Sort, doc: Doc): string {
  const body: CursorBody = { s: signature(sort), v: sort.map(([f]) => getPath(doc, f) ?? null) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The sort-key values of a cursor; throws InvalidFilterError when it is malformed or of another sort. */
export function decodeCursor(sort: Sort, cursor: string): unknown[] {
  let body: CursorBody;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as CursorBody;
  } catch {
    throw new InvalidFilterError('Malformed cursor');
  }
  if (!body || typeof body !== 'object' || !Array.isArray(body.v) || body.v.length !== sort.length) {
    throw new InvalidFilterError('Malformed cursor');
  }
  if (body.s !== signature(sort)) throw new InvalidFilterError('The cursor belongs to another sort order');
  if (typeof body.v[body.v.length - 1] !== 'string') throw new InvalidFilterError('Malformed cursor');
  return body.v;
}
