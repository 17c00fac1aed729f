import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { CurrentPrincipal, PlatformAuth, type Principal, RequireScope } from '#access';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { DeliveryView } from '#webhooks';
import { platformOwner } from '../platform-owner.js';
import { deliverySchema, webhookIdParams } from '../webhook-http.schemas.js';
import { ListDeliveriesQuery } from '#webhooks';

@Controller('v1/webhooks')
@PlatformAuth()
export class ListDeliveriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/deliveries')
  @RequireScope('admin')
  @Operation({
    summary: "List a webhook's recent deliveries",
    description:
      'Scope `admin`. Newest first: each delivery with its event id and type, state (`pending`, `succeeded`, `failed`, `cancelled`), attempts with their outcomes (status code, duration, error, first 2 KiB of the answer) and the next attempt time. Paginated by `limit` (default 20, at most 100) and `cursor`.',
    tags: ['webhooks'],
    operationId: 'listWebhookDeliveries',
    params: webhookIdParams,
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of deliveries.',
        schema: listPageSchema(deliverySchema).meta({ id: 'WebhookDeliveryList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: 'No such webhook in this account: `WEBHOOK_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Param() params: z.output<typeof webhookIdParams>,
    @Query() query: z.output<typeof listQuerySchema>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<DeliveryView>> {
    return this.queries.execute(
      new ListDeliveriesQuery('platform', platformOwner(principal), params.id, query.limit, query.cursor),
    );
  }
}
