import { Global, Module } from '@nestjs/common';
import { TENANT_LOOKUP } from '#agent-billing';
import { TenantDirectory } from './tenant-directory.js';

/**
 * The tenant directory, one instance (one tenant cache) for the workspace's guards and handlers
 * and, as TENANT_LOOKUP, for billing's metered pipeline (REST guards and MCP tools). Global
 * because billing's global module, which sits below the workspace, injects the port (ADR 0095).
 */
@Global()
@Module({
  providers: [TenantDirectory, { provide: TENANT_LOOKUP, useExisting: TenantDirectory }],
  exports: [TenantDirectory, TENANT_LOOKUP],
})
export class WorkspaceTenantsModule {}
