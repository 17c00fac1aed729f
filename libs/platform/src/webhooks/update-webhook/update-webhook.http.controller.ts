import { Body, Controller, Param, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { toWebhookView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { updateWebhookBody, webhookIdParams, webhookSchema } from '../webhook-http.schemas.js';
import { UpdateWebhookCommand } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class UpdateWebhookController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':id')
  @RequireScope('admin')
  @Operation({
    summary: 'Update, re-enable or disable a webhook',
    description:
      'Scope `admin`. Change `url`, `events` or `secret` (the next attempt uses them); `active: true` re-enables a disabled webhook and resets its failure count (deliveries cancelled when it was disabled stay cancelled: redeliver them); `active: false` disables it. Fields left out keep their value.',
    tags: ['webhooks'],
    operationId: 'updateWebhook',
    params: webhookIdParams,
    body: updateWebhookBody,
    responses: {
      200: { description: 'The webhook as it is now.', schema: webhookSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such webhook in this account: `WEBHOOK_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  async update(
    @Param() params: z.output<typeof webhookIdParams>,
    @Body() body: z.output<typeof updateWebhookBody>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<z.output<typeof webhookSchema>> {
    const doc = await this.commands.execute(
      new UpdateWebhookCommand({
        channel: 'platform',
        owner: platformOwner(principal),
        webhookId: params.id,
        ...(body.url !== undefined ? { url: body.url } : {}),
        ...(body.events !== undefined ? { events: body.events } : {}),
        ...(body.secret !== undefined ? { secret: body.secret } : {}),
        ...(body.active !== undefined ? { active: body.active } : {}),
      }),
    );
    return toWebhookView(doc);
  }
}
