import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { tenantDecider } from '../../tenant.decider.js';
import { IssueTenantKeyCommand } from '../issue-tenant-key/issue-tenant-key.command.js';
import { TenantProvisioning } from '../tenant-provisioning.js';
import { CreateTenantCommand, type CreatedTenant } from './create-tenant.command.js';

/**
 * Opens the tenant's agent account (origin `tenant`, bound to the tenant: its keys reach the
 * workspace), records the tenant, then issues its first key. The account comes first so a key
 * can never exist for a tenant its account does not name. With an account id, binds that account
 * instead (TenantProvisioning). An operator's tenant is enterprise (ADR 0078): no pilot clock.
 */
@CommandHandler(CreateTenantCommand)
export class CreateTenantHandler implements ICommandHandler<CreateTenantCommand, CreatedTenant> {
  constructor(
    private readonly commands: CommandBus,
    private readonly provisioning: TenantProvisioning,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ name, accountId: existing }: CreateTenantCommand): Promise<CreatedTenant> {
    if (existing) return this.onAccount(name, existing);
    const tenantId = this.ids.next('tn');
    const accountId = this.ids.next('acct');
    const now = this.clock.now();
    const tenantName = validName(name, now);
    await this.provisioning.openTenantAccount({ tenantId, accountId, name: tenantName, source: 'workspaces-cli' });
    await this.provisioning.decide(tenantId, {
      type: 'ActivateEnterprise',
      source: 'operator',
      reference: 'workspaces-cli',
      now: this.clock.now(),
    });
    const key = await this.commands.execute(new IssueTenantKeyCommand(tenantId, `${tenantName} service account`));
    return {
      tenant_id: tenantId,
      name: tenantName,
      account_id: accountId,
      key: { id: key.id, api_key: key.api_key },
    };
  }

  private async onAccount(name: string, accountId: string): Promise<CreatedTenant> {
    validName(name, this.clock.now());
    const tenant = await this.provisioning.ensureTenant(accountId, { name, reason: 'operator', reuse: false });
    await this.provisioning.decide(tenant.tenantId, {
      type: 'ActivateEnterprise',
      source: 'operator',
      reference: 'workspaces-cli',
      now: this.clock.now(),
    });
    const key = await this.commands.execute(
      new IssueTenantKeyCommand(tenant.tenantId, `${tenant.state.name} service account`),
    );
    return {
      tenant_id: tenant.tenantId,
      name: tenant.state.name,
      account_id: accountId,
      key: { id: key.id, api_key: key.api_key },
    };
  }
}

/** The name as the tenant will hold it, checked by the decider before anything is written. */
function validName(name: string, now: Date): string {
  const [created] = tenantDecider.decide(
    { type: 'CreateTenant', tenantId: 'tn_check', name, ownerAccountId: 'acct_check', now },
    tenantDecider.initialState,
  );
  if (created?.type !== 'WorkspaceTenantCreated') throw new Error('CreateTenant decided no tenant');
  return created.data.name;
}
