import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#common';
import { CurrentPrincipal, PlatformAuth, platformErrorResponses, type Principal, RATE_LIMIT_HEADERS, RequireScope } from '#platform';
import type { WebhookView } from '../../engine/webhook.views.js';
import { platformOwner } from '../../platform/platform-owner.js';
import { webhookIdParams, webhookSchema } from '../../platform/webhook-http.schemas.js';
import { GetWebhookQuery } from './get-webhook.query.js';

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
  get(@Param() params: z.output<typeof webhookIdParams>, @CurrentPrincipal() principal: Principal): Promise<WebhookView> {
    return this.queries.execute(new GetWebhookQuery('platform', platformOwner(principal), params.id));
  }
}
