import { Command } from '@nestjs/cqrs';

export interface CreatedTenant {
  tenant_id: string;
  name: string;
  account_id: string;
  key: { id: string; api_key: string };
}

/** `svc workspaces create --name N`: a tenant, its own agent account (credits) and a first tenant-bound key. */
export class CreateTenantCommand extends Command<CreatedTenant> {
  constructor(readonly name: string) {
    super();
  }
}
