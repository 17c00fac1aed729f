import type { Doc, Filter, Sort } from '#documents';
import type { ReadonlyCollection } from '#projections';
import { invalidCursor, type ListPage, toListPage } from './pagination.js';

/** One D6 page of a read-model collection; a cursor from another list or filter → 400. */
export async function findPage<D extends Doc, T>(
  collection: ReadonlyCollection<D>,
  filter: Filter,
  sort: Sort,
  page: { limit: number; cursor?: string | undefined },
  map: (doc: D) => T,
): Promise<ListPage<T>> {
  let result;
  try {
    result = await collection.find(filter, { sort, limit: page.limit, ...(page.cursor ? { after: page.cursor } : {}) });
  } catch (error) {
    if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
    throw error;
  }
  return toListPage(result, map);
}
