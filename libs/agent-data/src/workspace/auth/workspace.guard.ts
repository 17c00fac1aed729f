import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, AppError } from '#kernel';
import { publicBaseUrl, type RequestOrigin } from '#http';
import { AgentAuthenticator, AgentKeyGuard, type AgentRequest } from '../../auth/agent-auth.js';
import type { MeterName } from '../../catalog/meters.js';
import { Metered } from '../../metering/metered.js';
import { TenantDirectory } from '../tenants/tenant-directory.js';

/** Who a workspace request acts for: a tenant-bound key. */
export interface TenantCaller {
  tenantId: string;
  accountId: string;
  keyId: string;
}

type WorkspaceRequest = AgentRequest & RequestOrigin & { tenant?: TenantCaller };

/** 403 for a key that is not tenant-bound, with the way to become one. */
export function workspaceRequiresEnterprise(baseUrl: string): AppError {
  return new AppError(
    403,
    'forbidden',
    'WORKSPACE_REQUIRES_ENTERPRISE',
    'The workspace needs an enterprise, tenant-bound key; this key is self-serve. Ask for an enterprise workspace (see next_actions).',
    {
      next_actions: [
        {
          action: 'view_enterprise_upgrade',
          method: 'GET',
          url: `${baseUrl}/api/v1/agents/leads`,
          description: 'The enterprise upgrade page: what a workspace includes and how to ask for one.',
        },
        {
          action: 'submit_lead',
          method: 'POST',
          url: `${baseUrl}/api/v1/agents/leads`,
          description:
            'Ask for an enterprise workspace (operator pilot or enterprise); an operator creates the tenant.',
        },
      ],
    },
  );
}

/** After the key: the key's account must hold a tenant (403 otherwise, before any credits are held). */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(
    private readonly auth: AgentAuthenticator,
    private readonly tenants: TenantDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<WorkspaceRequest>();
    const principal = await this.auth.require(request);
    const tenantId = await this.tenants.tenantOf(principal.accountId);
    if (!tenantId) throw workspaceRequiresEnterprise(publicBaseUrl(request, this.config));
    request.tenant = { tenantId, accountId: principal.accountId, keyId: principal.keyId };
    return true;
  }
}

/** A workspace route: a tenant-bound key, then the meter's hold (charged on success only). */
export const WorkspaceRoute = (meter: MeterName) =>
  applyDecorators(UseGuards(AgentKeyGuard, TenantGuard), Metered(meter));

/** A workspace route that is not metered (managing the tenant's own webhook subscriptions). */
export const TenantRoute = () => applyDecorators(UseGuards(AgentKeyGuard, TenantGuard));

/** The tenant caller of a workspace route. */
export const CurrentTenant = createParamDecorator((_data: unknown, context: ExecutionContext): TenantCaller => {
  const tenant = context.switchToHttp().getRequest<WorkspaceRequest>().tenant;
  if (!tenant) throw new Error('CurrentTenant used on a route without WorkspaceRoute');
  return tenant;
});
