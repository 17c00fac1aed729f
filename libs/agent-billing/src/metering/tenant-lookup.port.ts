/** Who a workspace request acts for: a tenant-bound key. */
export interface TenantCaller {
  tenantId: string;
  accountId: string;
  keyId: string;
}

/**
 * The metered pipeline's tenant step (step 2): the tenant a key acts for, refused (403, or 402
 * PILOT_ENDED for a write) when it has none. Billing runs the step; the workspace, which sits
 * above billing, knows tenants and binds its TenantDirectory to TENANT_LOOKUP (ADR 0095).
 */
export interface TenantLookup {
  require(
    principal: { accountId: string; keyId: string },
    p: { write: boolean; baseUrl: string },
  ): Promise<TenantCaller>;
}

export const TENANT_LOOKUP = Symbol.for('svc.agent.tenant-lookup');
