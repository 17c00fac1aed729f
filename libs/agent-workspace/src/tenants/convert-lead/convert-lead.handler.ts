import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { leadAlreadyConverted, leadDecider, leadNotFound, type LeadState } from '../../leads/lead.decider.js';
import { leadStream } from '../../leads/lead.events.js';
import { tenantAccess } from '../../tenant.decider.js';
import { IssueTenantKeyCommand } from '../issue-tenant-key/issue-tenant-key.command.js';
import { type EnsuredTenant, TenantProvisioning } from '../tenant-provisioning.js';
import { type ConvertedLead, ConvertLeadCommand } from './convert-lead.command.js';

type Lead = Exclude<LeadState, { status: 'absent' }>;

/**
 * Converts a lead into a tenant. On an existing account the tenant is put there first and the
 * conversion recorded after; a new account's ids are recorded first (LeadConverted) and then
 * opened. Either way every step is idempotent, so running the command again after a failure
 * finishes the same conversion instead of making a second tenant.
 */
@CommandHandler(ConvertLeadCommand)
export class ConvertLeadHandler implements ICommandHandler<ConvertLeadCommand, ConvertedLead> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly provisioning: TenantProvisioning,
    private readonly commands: CommandBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ leadId, accountId: named }: ConvertLeadCommand): Promise<ConvertedLead> {
    const { state } = await loadState(this.events, leadStream(leadId), leadDecider);
    if (state.status === 'absent') throw leadNotFound();
    const done = state.conversion;
    if (done) {
      if (named && named !== done.accountId) throw leadAlreadyConverted(done);
      // Finish what an earlier run may have left half-done (a new account not opened yet), then answer it.
      const tenant = done.newAccount
        ? await this.provisioning.openTenantAccount({
            tenantId: done.tenantId,
            accountId: done.accountId,
            name: tenantName(state),
            source: 'leads-cli',
          })
        : await this.provisioning.ensureTenant(done.accountId, {
            name: tenantName(state),
            reason: 'lead',
            reuse: true,
          });
      return this.entitle(state, tenant, null, false);
    }
    const accountId = named ?? state.accountId;
    if (accountId) {
      const tenant = await this.provisioning.ensureTenant(accountId, {
        name: tenantName(state),
        reason: 'lead',
        reuse: true,
      });
      await this.record(state, tenant.tenantId, accountId, false);
      return this.entitle(state, tenant, null, true);
    }
    const tenantId = this.ids.next('tn');
    const newAccountId = this.ids.next('acct');
    await this.record(state, tenantId, newAccountId, true);
    const tenant = await this.provisioning.openTenantAccount({
      tenantId,
      accountId: newAccountId,
      name: tenantName(state),
      source: 'leads-cli',
    });
    const key = await this.commands.execute(
      new IssueTenantKeyCommand(tenantId, `${tenantName(state)} service account`),
    );
    return this.entitle(state, tenant, { id: key.id, api_key: key.api_key }, true);
  }

  private async record(lead: Lead, tenantId: string, accountId: string, newAccount: boolean): Promise<void> {
    await decideAndAppend(this.events, leadStream(lead.leadId), leadDecider, {
      type: 'ConvertLead',
      tenantId,
      accountId,
      newAccount,
      now: this.clock.now(),
    });
  }

  /** An operator_pilot lead starts the pilot (once per tenant); an enterprise lead gets enterprise access. */
  private async entitle(
    lead: Lead,
    tenant: EnsuredTenant,
    key: ConvertedLead['key'],
    converted: boolean,
  ): Promise<ConvertedLead> {
    const now = this.clock.now();
    const state = await this.provisioning.decide(
      tenant.tenantId,
      lead.objective === 'enterprise'
        ? { type: 'ActivateEnterprise', source: 'lead', reference: lead.leadId, now }
        : { type: 'StartPilot', days: lead.pilotDays, source: 'lead', reference: lead.leadId, now },
    );
    const access = tenantAccess(state, now);
    return {
      lead_id: lead.leadId,
      tenant_id: tenant.tenantId,
      account_id: tenant.accountId,
      plan: access.plan,
      pilot_ends_at: access.pilot?.endsAt ?? null,
      key,
      converted,
    };
  }
}

/** The tenant's name: the lead's company, else its agent, else its contact. */
function tenantName(lead: Lead): string {
  return (lead.company ?? lead.agentName ?? lead.contactEmail).slice(0, 200);
}
