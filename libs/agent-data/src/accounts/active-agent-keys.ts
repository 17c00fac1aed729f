import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import type { ProjectionStore } from '#projections';

/** An account's active keys as the read model shows them: the seed for accounts whose stream predates key events. */
export async function activeAgentKeyIds(projections: ProjectionStore, accountId: string): Promise<string[]> {
  const page = await projections
    .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
    .find({ account_id: accountId, revoked_at: null }, { limit: 100 });
  return page.items.map((k) => k.id);
}
