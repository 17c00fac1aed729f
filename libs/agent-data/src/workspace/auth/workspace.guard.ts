import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '#kernel';
import { publicBaseUrl, type RequestOrigin } from '#http';
import { AgentAuthenticator, AgentKeyGuard, type AgentRequest } from '../../auth/agent-auth.js';
import type { MeterName } from '../../catalog/meters.js';
import { Metered } from '../../metering/metered.js';
import { type TenantCaller, TenantDirectory } from '../tenants/tenant-directory.js';

export type { TenantCaller } from '../tenants/tenant-directory.js';
export { workspaceRequiresEnterprise } from './workspace-access.errors.js';

type WorkspaceRequest = AgentRequest & RequestOrigin & { tenant?: TenantCaller; method?: string };

/**
 * Methods that only read, or remove a subscription (stopping pushes that cost credits): allowed
 * on a workspace whose pilot has ended. Every other method writes and is refused there.
 */
const ALLOWED_WHEN_READ_ONLY = new Set(['GET', 'HEAD', 'DELETE']);

/**
 * After the key: the key's account must hold a tenant (403 otherwise) and, for a write, the
 * workspace must be writable (402 PILOT_ENDED otherwise), both before any credits are held.
 */
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
    request.tenant = await this.tenants.require(principal, {
      write: !ALLOWED_WHEN_READ_ONLY.has((request.method ?? 'GET').toUpperCase()),
      baseUrl: publicBaseUrl(request, this.config),
    });
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
