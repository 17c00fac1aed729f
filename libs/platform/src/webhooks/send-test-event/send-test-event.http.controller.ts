import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { toDeliveryView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { deliverySchema, webhookIdParams } from '../webhook-http.schemas.js';
import { SendTestEventCommand } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class SendTestEventController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/test')
  @HttpCode(202)
  @RequireScope('admin')
  @Operation({
    summary: 'Send a test event',
    description:
      'Scope `admin`. Queues a `webhook.test` delivery to this webhook whatever events it subscribes to; it is sent at once, signed and retried like any other, and listed under the deliveries. A disabled webhook: 409 `WEBHOOK_DISABLED` (re-enable it first).',
    tags: ['webhooks'],
    operationId: 'sendWebhookTestEvent',
    params: webhookIdParams,
    body: emptyBody,
    responses: {
      202: { description: 'The test delivery, pending.', schema: deliverySchema, headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such webhook in this account: `WEBHOOK_NOT_FOUND`.' },
      409: { description: 'The webhook is disabled: `WEBHOOK_DISABLED`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async test(
    @Param() params: z.output<typeof webhookIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<z.output<typeof deliverySchema>> {
    const doc = await this.commands.execute(
      new SendTestEventCommand({ channel: 'platform', owner: platformOwner(principal), webhookId: params.id }),
    );
    return toDeliveryView(doc);
  }
}
