import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreateApiKeyCommand } from '#access';
import { CLOCK, type Clock, Errors } from '#kernel';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { ProjectionStore } from '#projections';
import { AGENT_KEY_SCOPES, AgentAccounts, keySeedFor } from '#agent-billing';
import { tenantDecider } from '../../tenant.decider.js';
import { tenantStream } from '../../workspace.events.js';
import { IssueTenantKeyCommand, type IssuedTenantKey } from './issue-tenant-key.command.js';

/** A key of the tenant's account (agent surface): tenant-bound because its account is. */
@CommandHandler(IssueTenantKeyCommand)
export class IssueTenantKeyHandler implements ICommandHandler<IssueTenantKeyCommand, IssuedTenantKey> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly accounts: AgentAccounts,
    private readonly projections: ProjectionStore,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ tenantId, name }: IssueTenantKeyCommand): Promise<IssuedTenantKey> {
    const { state: tenant } = await loadState(this.events, tenantStream(tenantId), tenantDecider);
    if (tenant.status !== 'active') throw Errors.notFound('No tenant with this id.', 'TENANT_NOT_FOUND');
    const trimmed = name.trim();
    if (trimmed.length < 1 || trimmed.length > 100)
      throw Errors.validation([{ path: 'name', message: 'must be 1 to 100 characters' }]);
    const accountId = tenant.ownerAccountId;
    const key = await this.commands.execute(
      new CreateApiKeyCommand(
        { accountId, name: trimmed, scopes: AGENT_KEY_SCOPES, surface: 'agent', creator: { operator: true } },
        { readYourWrites: false },
      ),
    );
    const known = await keySeedFor(this.accounts, this.projections, accountId);
    await this.accounts.decide(accountId, {
      type: 'RecordAgentKeyIssued',
      keyId: key.id,
      knownActiveKeyIds: known,
      now: this.clock.now(),
    });
    return {
      tenant_id: tenantId,
      account_id: accountId,
      id: key.id,
      api_key: key.key,
      name: key.name,
      created_at: key.created_at,
    };
  }
}
