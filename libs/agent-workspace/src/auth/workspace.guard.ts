import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { AgentKeyGuard, type MeterName } from '#agent-contract';
import { Metered, MeteredPipeline, type PipelineRequest, type TenantCaller } from '#agent-billing';

export type { TenantCaller } from '#agent-billing';
export { workspaceRequiresEnterprise } from './workspace-access.errors.js';

type WorkspaceRequest = PipelineRequest & { tenant?: TenantCaller; method?: string };

/**
 * After the key: the key's account must hold a tenant (403 otherwise) and, for a write, the
 * workspace must be writable (402 PILOT_ENDED otherwise), both before any credits are held (the
 * metered pipeline's tenant step, which MCP's workspace tools take too).
 */
@Injectable()
export class TenantGuard implements CanActivate {
  constructor(private readonly pipeline: MeteredPipeline) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<WorkspaceRequest>();
    const principal = await this.pipeline.key(request);
    request.tenant = await this.pipeline.tenant(request, principal, request.method ?? 'GET');
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
