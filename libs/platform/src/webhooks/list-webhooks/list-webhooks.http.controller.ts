import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { WebhookView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { webhookSchema } from '../webhook-http.schemas.js';
import { ListWebhooksQuery } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class ListWebhooksController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('admin')
  @Operation({
    summary: "List the account's webhooks",
    description:
      'Scope `admin`. Newest first, disabled ones included (`active: false`); secrets are never shown. Paginated by `limit` (default 20, at most 100) and `cursor`.',
    tags: ['webhooks'],
    operationId: 'listWebhooks',
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of webhooks.',
        schema: listPageSchema(webhookSchema).meta({ id: 'WebhookList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listQuerySchema>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<WebhookView>> {
    return this.queries.execute(new ListWebhooksQuery('platform', platformOwner(principal), query.limit, query.cursor));
  }
}
