import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type AccountWorkspaceView, GetAccountWorkspaceQuery, OBJECTIVE_PACK } from '#agent-contract';
import { TenantDirectory } from '../tenant-directory.js';

@QueryHandler(GetAccountWorkspaceQuery)
export class GetAccountWorkspaceHandler implements IQueryHandler<
  GetAccountWorkspaceQuery,
  AccountWorkspaceView | null
> {
  constructor(private readonly tenants: TenantDirectory) {}

  async execute({ accountId, baseUrl }: GetAccountWorkspaceQuery): Promise<AccountWorkspaceView | null> {
    const workspace = await this.tenants.workspaceOf(accountId);
    if (!workspace) return null;
    const { access, tenant } = workspace;
    const pilot = access.pilot;
    return {
      tenant_id: workspace.tenantId,
      name: tenant?.name ?? null,
      plan: access.plan,
      access: access.writable ? 'read_write' : 'read_only',
      pilot: pilot
        ? { days: pilot.days, started_at: pilot.startedAt, ends_at: pilot.endsAt, ended_at: pilot.endedAt }
        : null,
      enterprise_since: tenant?.enterprise?.activatedAt ?? null,
      companies_url: `${baseUrl}/api/v1/workspace/companies`,
      note:
        access.plan === 'pilot'
          ? `The workspace is ready: every key of this account reaches /api/v1/workspace/* until the pilot ends at ${pilot!.endsAt}; then it is read-only until ${OBJECTIVE_PACK.enterprise} is bought.`
          : access.plan === 'pilot_ended'
            ? `The pilot ended at ${pilot!.endsAt}: the workspace is read-only (reads work, data and keys are kept). Buy ${OBJECTIVE_PACK.enterprise} to write again.`
            : 'The workspace is ready: every key of this account reaches /api/v1/workspace/*.',
    };
  }
}
