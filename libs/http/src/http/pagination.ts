import { z } from 'zod';
import { Errors, type AppError } from '#kernel';

/** D6: page sizes of every list. */
export const DEFAULT_PAGE_LIMIT = 20;
export const MAX_PAGE_LIMIT = 100;

/** `?limit` (default 20, 1–100) and `?cursor` (opaque, from a previous page's `next_cursor`). */
export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(DEFAULT_PAGE_LIMIT),
  cursor: z.string().min(1).max(1024).optional(),
});
export type ListQuery = z.output<typeof listQuerySchema>;

/** A D6 list body: `{data, has_more, next_cursor}`. */
export interface ListPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

export function listPageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe('Pass as ?cursor to get the next page; null on the last page.'),
  });
}

/** A page from a keyset find result (`{items, nextCursor}` of the document store). */
export function toListPage<D, T>(result: { items: D[]; nextCursor: string | null }, map: (doc: D) => T): ListPage<T> {
  return { data: result.items.map(map), has_more: result.nextCursor !== null, next_cursor: result.nextCursor };
}

/** 400 for a cursor that is malformed or belongs to another list. */
export function invalidCursor(): AppError {
  return Errors.validation(
    [{ path: 'query.cursor', message: 'unknown or malformed cursor' }],
    'The cursor is not valid for this list.',
  );
}
