import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import type { ProjectionStore } from '#projections';
import type { AgentAccounts } from './agent-accounts.js';

/** An account's active keys as the read model shows them: the seed for accounts whose stream predates key events. */
export async function activeAgentKeyIds(projections: ProjectionStore, accountId: string): Promise<string[]> {
  const page = await projections
    .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
    .find({ account_id: accountId, revoked_at: null }, { limit: 100 });
  return page.items.map((k) => k.id);
}

/**
 * The seed a key decision needs: the read model's active keys when the account's stream does not
 * know its keys yet (opened before key events), else nothing (the stream decides).
 */
export async function keySeedFor(
  accounts: AgentAccounts,
  projections: ProjectionStore,
  accountId: string,
): Promise<string[]> {
  const state = await accounts.load(accountId);
  return state.status === 'open' && state.activeKeyIds === null ? activeAgentKeyIds(projections, accountId) : [];
}
