import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { WebhookView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { webhookIdParams, webhookSchema } from '../webhook-http.schemas.js';
import { GetWebhookQuery } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class GetWebhookController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('admin')
  @Operation({
    summary: 'Get a webhook',
    description: 'Scope `admin`. Never shows the secret.',
    tags: ['webhooks'],
    operationId: 'getWebhook',
    params: webhookIdParams,
    responses: {
      200: { description: 'The webhook.', schema: webhookSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: 'No such webhook in this account: `WEBHOOK_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(
    @Param() params: z.output<typeof webhookIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<WebhookView> {
    return this.queries.execute(new GetWebhookQuery('platform', platformOwner(principal), params.id));
  }
}
