import { Errors } from '#kernel';

/**
 * The tenant stream's cursor: an opaque token of the global position of the last event a page
 * held (positions never change, so a cursor survives a rebuild). `p<position>` in base64url.
 */
export function encodeEventCursor(position: number): string {
  return Buffer.from(`p${position}`).toString('base64url');
}

export function decodeEventCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const match = /^p(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw Errors.validation([{ path: 'query.after', message: 'expected a next_cursor of this stream' }]);
  return Number(match[1]);
}
