import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { type CreateSubscriptionBody, createSubscriptionBody } from '../workspace-webhooks.schemas.js';
import { CreateSubscriptionCommand } from './create-subscription.command.js';
import { subscriptionSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/webhooks/subscriptions')
export class CreateSubscriptionController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post()
  @HttpCode(201)
  @WorkspaceRoute('write.workspace.webhook')
  @Operation({
    summary: 'Create a webhook subscription',
    description:
      '`{url, events, secret?}`. Each tenant event of a subscribed type is POSTed to `url` as `{id, type, created, data}` (the id and data of GET /workspace/events), signed with the secret (`X-Service-Signature: sha256=<hex HMAC-SHA256 of the body>` and the Standard Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature`), retried after 1 min, 5 min, 30 min and 2 h; the fifth failed attempt (or a 410) disables it. Without `secret`, one is generated and returned once. Meter `write.workspace.webhook`; each successful push is charged `deliver.workspace.webhook` (a failed push is refunded). When the credits cannot pay a push, the delivery is held (`held_for_credits`) and goes out once credits arrive.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceCreateWebhookSubscription',
    body: createSubscriptionBody,
    responses: {
      201: {
        description: 'The subscription in the envelope (with `secret` when it was generated).',
        schema: envelopeSchema(subscriptionSchema, 'WorkspaceSubscriptionResponse'),
      },
      409: { description: 'WEBHOOK_LIMIT_REACHED: the tenant has the most subscriptions it may have; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async create(@Body() body: CreateSubscriptionBody, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(this.clock.now(), await this.commands.execute(new CreateSubscriptionCommand(tenant, body)));
  }
}
