import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, TenantRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { listSubscriptionsQuery } from '../workspace-webhooks.schemas.js';
import { ListSubscriptionsQuery } from './list-subscriptions.query.js';
import { subscriptionPageSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/webhooks/subscriptions')
export class ListSubscriptionsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @TenantRoute()
  @Operation({
    summary: 'List webhook subscriptions',
    description:
      'Newest first, never the secrets. `held_for_credits` counts the deliveries waiting for credits. Not metered.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListWebhookSubscriptions',
    query: listSubscriptionsQuery,
    responses: {
      200: {
        description: 'A page of subscriptions ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(subscriptionPageSchema, 'WorkspaceSubscriptionPageResponse'),
      },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(@Query() query: z.output<typeof listSubscriptionsQuery>, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new ListSubscriptionsQuery(tenant.tenantId, query.limit, query.cursor)),
    );
  }
}
