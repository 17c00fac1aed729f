import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { ListDeliveriesQuery } from '#webhooks';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, TenantRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { WORKSPACE_CHANNEL } from '../workspace.channel.js';
import { listWorkspaceDeliveriesQuery } from '../workspace-webhooks.schemas.js';
import { workspaceDeliveryPageSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/webhooks/deliveries')
export class ListWorkspaceDeliveriesController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @TenantRoute()
  @Operation({
    summary: 'List webhook deliveries',
    description:
      'Newest first, with their attempts (status code, duration, error, the first 2 KiB of the answer). `state`: pending, held (waiting for credits), succeeded, failed, cancelled. `subscription_id` narrows to one subscription (404 for one not in this workspace). Not metered.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListWebhookDeliveries',
    query: listWorkspaceDeliveriesQuery,
    responses: {
      200: {
        description: 'A page of deliveries ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(workspaceDeliveryPageSchema, 'WorkspaceDeliveryPageResponse'),
      },
      404: { description: 'WEBHOOK_NOT_FOUND: `subscription_id` is not a subscription of this workspace.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(@Query() query: z.output<typeof listWorkspaceDeliveriesQuery>, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(
        new ListDeliveriesQuery(
          WORKSPACE_CHANNEL,
          { kind: 'tenant', id: tenant.tenantId },
          query.subscription_id ?? null,
          query.limit,
          query.cursor,
        ),
      ),
    );
  }
}
