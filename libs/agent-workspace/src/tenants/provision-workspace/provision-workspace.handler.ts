import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { AgentAccounts } from '#agent-billing';
import { findPack, OPERATOR_PILOT_DAYS, type ProvisionedWorkspace, ProvisionWorkspaceCommand } from '#agent-contract';
import { tenantAccess } from '../../tenant.decider.js';
import { TenantProvisioning } from '../tenant-provisioning.js';

@CommandHandler(ProvisionWorkspaceCommand)
export class ProvisionWorkspaceHandler implements ICommandHandler<
  ProvisionWorkspaceCommand,
  ProvisionedWorkspace | null
> {
  private readonly logger = new Logger('ProvisionWorkspace');

  constructor(
    private readonly provisioning: TenantProvisioning,
    private readonly accounts: AgentAccounts,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ accountId, packId, reference }: ProvisionWorkspaceCommand): Promise<ProvisionedWorkspace | null> {
    const entitlement = findPack(packId)?.workspace;
    if (!entitlement) return null;
    const account = await this.accounts.load(accountId);
    const named = account.status === 'open' ? (account.agentName ?? account.contactEmail ?? '').trim() : '';
    const ensured = await this.provisioning.ensureTenant(accountId, {
      name: named ? named.slice(0, 200) : `Workspace of ${accountId}`,
      reason: 'purchase',
      reuse: true,
    });
    const now = this.clock.now();
    const state = await this.provisioning.decide(
      ensured.tenantId,
      entitlement === 'pilot'
        ? { type: 'StartPilot', days: OPERATOR_PILOT_DAYS, source: 'purchase', reference, now }
        : { type: 'ActivateEnterprise', source: 'purchase', reference, now },
    );
    const access = tenantAccess(state, now);
    if (ensured.created) this.logger.log(`payment ${reference} opened workspace ${ensured.tenantId} for ${accountId}`);
    return {
      tenant_id: ensured.tenantId,
      plan: access.plan,
      pilot_ends_at: access.pilot?.endsAt ?? null,
      created: ensured.created,
    };
  }
}
