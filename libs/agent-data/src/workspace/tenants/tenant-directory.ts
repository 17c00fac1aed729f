import { Injectable } from '@nestjs/common';
import { BoundedCache } from '#kernel';
import { AgentAccounts } from '../../accounts/agent-accounts.js';

/**
 * Which tenant an agent account holds, from the account's own stream (its opening event names
 * the tenant; an account never changes tenant), so a key works on the workspace as soon as the
 * key does, with no read model to wait for. Cached for the process, both answers.
 */
@Injectable()
export class TenantDirectory {
  private readonly cache = new BoundedCache<string, string | null>({ maxEntries: 100_000 });

  constructor(private readonly accounts: AgentAccounts) {}

  async tenantOf(accountId: string): Promise<string | null> {
    const cached = this.cache.get(accountId);
    if (cached !== undefined) return cached;
    const state = await this.accounts.load(accountId);
    const tenantId = state.status === 'open' ? state.tenantId : null;
    if (state.status === 'open') this.cache.set(accountId, tenantId);
    return tenantId;
  }
}
