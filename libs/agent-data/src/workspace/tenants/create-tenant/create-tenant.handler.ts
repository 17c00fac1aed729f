import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { AgentAccounts } from '../../../accounts/agent-accounts.js';
import { OBJECTIVE_PACK } from '../../../catalog/objectives.js';
import { tenantDecider } from '../../tenant.decider.js';
import { tenantStream } from '../../workspace.events.js';
import { IssueTenantKeyCommand } from '../issue-tenant-key/issue-tenant-key.command.js';
import { CreateTenantCommand, type CreatedTenant } from './create-tenant.command.js';

/**
 * Opens the tenant's agent account (origin `tenant`, bound to the tenant: its keys reach the
 * workspace), records the tenant, then issues its first key. The account comes first so a key
 * can never exist for a tenant its account does not name.
 */
@CommandHandler(CreateTenantCommand)
export class CreateTenantHandler implements ICommandHandler<CreateTenantCommand, CreatedTenant> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly accounts: AgentAccounts,
    private readonly commands: CommandBus,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ name }: CreateTenantCommand): Promise<CreatedTenant> {
    const tenantId = this.ids.next('tn');
    const accountId = this.ids.next('acct');
    const now = this.clock.now();
    // Validates the name before anything is written.
    const [created] = tenantDecider.decide(
      { type: 'CreateTenant', tenantId, name, ownerAccountId: accountId, now },
      tenantDecider.initialState,
    );
    await this.accounts.decide(accountId, {
      type: 'OpenAgentAccount',
      accountId,
      origin: 'tenant',
      environment: this.config.env,
      contactEmail: null,
      agentName: created!.data.name,
      useCase: 'enterprise workspace',
      objective: 'enterprise',
      packId: OBJECTIVE_PACK.enterprise,
      source: 'workspaces-cli',
      sourceRef: null,
      tenantId,
      now,
    });
    await decideAndAppend(this.events, tenantStream(tenantId), tenantDecider, {
      type: 'CreateTenant',
      tenantId,
      name,
      ownerAccountId: accountId,
      now,
    });
    const key = await this.commands.execute(
      new IssueTenantKeyCommand(tenantId, `${created!.data.name} service account`),
    );
    return {
      tenant_id: tenantId,
      name: created!.data.name,
      account_id: accountId,
      key: { id: key.id, api_key: key.api_key },
    };
  }
}
