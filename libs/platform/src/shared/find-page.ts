import { type AppError } from '#kernel';
import type { Doc } from '#documents';
import type { ReadonlyCollection } from '#projections';

/** One D6 page of a read-model collection (shared by every list; it lives in the http lib). */
export { findPage } from '#http';

/** A document of the caller's account, or the 404 given: another account's looks like a missing one. */
export async function getOwned<D extends Doc & { account_id: string }>(
  collection: ReadonlyCollection<D>,
  id: string,
  accountId: string,
  notFound: () => AppError,
): Promise<D> {
  const doc = await collection.get(id);
  if (!doc || doc.account_id !== accountId) throw notFound();
  return doc;
}
