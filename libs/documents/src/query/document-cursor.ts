import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor } from '#kernel';
import { InvalidFilterError, type Doc, type Sort } from '../document-store.port.js';
import { getPath } from './document-filter.js';

/**
 * Keyset cursors: the sort-key values of the last item of a page (missing = null), the sort they
 * belong to, in the service's one opaque cursor form (kernel). Opaque to callers; shared by the adapters and the projection context
 * so a context can continue a page that mixes stored and pending documents.
 */
const cursorBody = z.object({
  /** Sort signature, e.g. `created_at:-1,id:1`: a cursor is only valid with its own sort. */
  s: z.string(),
  /** One value per normalized sort key, `id` included. */
  v: z.array(z.unknown()),
});
type CursorBody = z.output<typeof cursorBody>;

function signature(sort: Sort): string {
  return sort.map(([f, d]) => `${f}:${d}`).join(',');
}

/** Cursor after `doc` for a normalized sort (see normalizeSort). */
export function encodeCursor(sort: Sort, doc: Doc): string {
  const body: CursorBody = { s: signature(sort), v: sort.map(([f]) => getPath(doc, f) ?? null) };
  return encodeOpaqueCursor(body);
}

/** The sort-key values of a cursor; throws InvalidFilterError when it is malformed or of another sort. */
export function decodeCursor(sort: Sort, cursor: string): unknown[] {
  const body = decodeOpaqueCursor(cursor, cursorBody);
  if (!body || body.v.length !== sort.length) throw new InvalidFilterError('Malformed cursor');
  if (body.s !== signature(sort)) throw new InvalidFilterError('The cursor belongs to another sort order');
  if (typeof body.v[body.v.length - 1] !== 'string') throw new InvalidFilterError('Malformed cursor');
  return body.v;
}
