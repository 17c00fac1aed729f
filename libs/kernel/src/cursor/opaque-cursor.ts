/**
 * The one wire form of the cursors the service hands out (document-store keysets, the tenant event
 * stream, the ledger, the discovery ranking): base64url of a small JSON object. Opaque to
 * callers; each reader checks the body's shape, so a cursor of another list is refused, never
 * misread.
 */
import type { z } from 'zod';

export function encodeOpaqueCursor(body: object): string {
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The body of `cursor` when it is one of `schema`'s shape; undefined for anything else (the caller answers 400). */
export function decodeOpaqueCursor<S extends z.ZodType>(cursor: string, schema: S): z.output<S> | undefined {
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = schema.safeParse(body);
  return parsed.success ? parsed.data : undefined;
}
