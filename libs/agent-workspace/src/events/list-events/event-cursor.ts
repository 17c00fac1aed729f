import { z } from 'zod';
import { decodeOpaqueCursor, encodeOpaqueCursor, Errors } from '#kernel';

/**
 * The tenant stream's cursor: the global position of the last event a page held (positions never
 * change, so a cursor survives a rebuild), in the service's one opaque cursor form.
 */
const eventCursorBody = z.strictObject({ p: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export function encodeEventCursor(position: number): string {
  return encodeOpaqueCursor({ p: position });
}

export function decodeEventCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const body = decodeOpaqueCursor(cursor, eventCursorBody);
  if (!body) throw Errors.validation([{ path: 'query.after', message: 'expected a next_cursor of this stream' }]);
  return body.p;
}
