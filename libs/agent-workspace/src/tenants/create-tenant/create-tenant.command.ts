import { Command } from '@nestjs/cqrs';

export interface CreatedTenant {
  tenant_id: string;
  name: string;
  account_id: string;
  /** A new service-account key of the tenant (on an existing account, its older keys are tenant-bound too). */
  key: { id: string; api_key: string };
}

/**
 * `svc workspaces create --name N [--account acct_…]`: an enterprise tenant, on a new agent
 * account with a first tenant-bound key, or on an existing account so the credits it bought
 * follow and its keys reach the workspace.
 */
export class CreateTenantCommand extends Command<CreatedTenant> {
  constructor(
    readonly name: string,
    readonly accountId?: string,
  ) {
    super();
  }
}
