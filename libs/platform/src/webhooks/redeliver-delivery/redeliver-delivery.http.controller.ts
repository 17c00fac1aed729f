import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { emptyBody, Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { toDeliveryView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { deliveryIdParams, deliverySchema } from '../webhook-http.schemas.js';
import { RedeliverDeliveryCommand } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class RedeliverDeliveryController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':id/deliveries/:delivery_id/redeliver')
  @HttpCode(202)
  @RequireScope('admin')
  @Operation({
    summary: 'Redeliver a delivery',
    description:
      'Scope `admin`. Sends the delivery again now, with the same event, id and signature scheme, whatever its state (also to a disabled webhook). A manual attempt never counts toward disabling; when it succeeds the delivery is `succeeded`.',
    tags: ['webhooks'],
    operationId: 'redeliverWebhookDelivery',
    body: emptyBody,
    params: deliveryIdParams,
    responses: {
      202: {
        description: 'The delivery, with `redelivery_pending: true` until the attempt is made.',
        schema: deliverySchema,
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: '`WEBHOOK_NOT_FOUND` or `DELIVERY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async redeliver(
    @Param() params: z.output<typeof deliveryIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<z.output<typeof deliverySchema>> {
    const doc = await this.commands.execute(
      new RedeliverDeliveryCommand({
        channel: 'platform',
        owner: platformOwner(principal),
        webhookId: params.id,
        deliveryId: params.delivery_id,
      }),
    );
    return toDeliveryView(doc);
  }
}
