import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { DeleteWebhookCommand } from '#webhooks';
import { CurrentTenant, type TenantCaller, TenantRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { WORKSPACE_CHANNEL } from '../workspace.channel.js';
import { subscriptionIdParams } from '../workspace-webhooks.schemas.js';

@Controller('api/v1/workspace/webhooks/subscriptions')
export class DeleteSubscriptionController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @HttpCode(204)
  @TenantRoute()
  @Operation({
    summary: 'Delete a webhook subscription',
    description:
      'No push is made after this; pending retries and held deliveries are cancelled. Deleting again, or another tenant’s id: 404 `WEBHOOK_NOT_FOUND`. Not metered.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceDeleteWebhookSubscription',
    body: emptyBody,
    params: subscriptionIdParams,
    responses: {
      204: { description: 'Deleted.' },
      404: { description: 'WEBHOOK_NOT_FOUND: no such subscription in this workspace.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async delete(@Param() params: z.output<typeof subscriptionIdParams>, @CurrentTenant() tenant: TenantCaller) {
    await this.commands.execute(
      new DeleteWebhookCommand({
        channel: WORKSPACE_CHANNEL,
        owner: { kind: 'tenant', id: tenant.tenantId },
        webhookId: params.id,
      }),
    );
  }
}
