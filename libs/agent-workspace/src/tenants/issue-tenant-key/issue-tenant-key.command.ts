import { Command } from '@nestjs/cqrs';

export interface IssuedTenantKey {
  tenant_id: string;
  account_id: string;
  id: string;
  api_key: string;
  name: string;
  created_at: string;
}

/** `svc workspaces keys create --tenant ID --name N`: another tenant-bound service-account key. */
export class IssueTenantKeyCommand extends Command<IssuedTenantKey> {
  constructor(
    readonly tenantId: string,
    readonly name: string,
  ) {
    super();
  }
}
