import { Inject, Injectable } from '@nestjs/common';
import { BoundedCache, CLOCK, type Clock } from '#kernel';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { AgentAccounts, CheckoutLinkSigner, type TenantCaller, type TenantLookup } from '#agent-billing';
import { pilotEnded, workspaceRequiresEnterprise } from '../auth/workspace-access.errors.js';
import { type TenantAccess, tenantAccess, tenantDecider, type TenantState } from '../tenant.decider.js';
import { tenantStream } from '../workspace.events.js';

export interface AccountWorkspace {
  tenantId: string;
  tenant: Extract<TenantState, { status: 'active' }> | null;
  access: TenantAccess;
}

/**
 * Which tenant an agent account holds and what it may do there. The tenant is read from the
 * account's own stream (its opening event, or a later AgentAccountTenantBound: an account never
 * changes tenant once bound), so a key works on the workspace as soon as the key or the payment
 * that bound it does, with no read model to wait for. Bound answers are cached for the process;
 * "no tenant" is not, so a binding made by another process (a payment, the CLI) counts at once.
 * The plan (pilot, ended, enterprise) is folded from the tenant's short stream on each request.
 */
@Injectable()
export class TenantDirectory implements TenantLookup {
  private readonly cache = new BoundedCache<string, string>({ maxEntries: 100_000 });

  constructor(
    private readonly accounts: AgentAccounts,
    private readonly signer: CheckoutLinkSigner,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async tenantOf(accountId: string): Promise<string | null> {
    const cached = this.cache.get(accountId);
    if (cached !== undefined) return cached;
    const state = await this.accounts.load(accountId);
    const tenantId = state.status === 'open' ? state.tenantId : null;
    if (tenantId) this.cache.set(accountId, tenantId);
    return tenantId;
  }

  /** The account's workspace and its access now; null for an account without a tenant. */
  async workspaceOf(accountId: string): Promise<AccountWorkspace | null> {
    const tenantId = await this.tenantOf(accountId);
    if (!tenantId) return null;
    const { state } = await loadState(this.events, tenantStream(tenantId), tenantDecider);
    // Bound but its tenant stream not written yet (a fulfilment finishing): usable, like the account's keys.
    if (state.status !== 'active')
      return { tenantId, tenant: null, access: { plan: 'enterprise', writable: true, pilot: null } };
    return { tenantId, tenant: state, access: tenantAccess(state, this.clock.now()) };
  }

  /**
   * The tenant a key acts for: 403 WORKSPACE_REQUIRES_ENTERPRISE without one, 402 PILOT_ENDED
   * for a write once the pilot is over (reads stay allowed).
   */
  async require(
    principal: { accountId: string; keyId: string },
    p: { write: boolean; baseUrl: string },
  ): Promise<TenantCaller> {
    const workspace = await this.workspaceOf(principal.accountId);
    if (!workspace) throw workspaceRequiresEnterprise(p.baseUrl, this.signer.sign(principal.keyId));
    if (p.write && !workspace.access.writable)
      throw pilotEnded({
        baseUrl: p.baseUrl,
        endsAt: workspace.access.pilot?.endsAt ?? '',
        binding: this.signer.sign(principal.keyId),
      });
    return { tenantId: workspace.tenantId, accountId: principal.accountId, keyId: principal.keyId };
  }
}
