import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import type { PlatformEventEnvelope } from '../../platform-event.js';
import { platformEventSchema } from '../../platform-event.schemas.js';
import { GetEventQuery } from './get-event.query.js';

const eventIdParams = z.object({
  id: z.string().min(1).max(64).describe('Event id (`evt_…`), as in a webhook delivery.'),
});

@Controller('v1/events')
@PlatformAuth()
export class GetEventController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('read')
  @Operation({
    summary: 'Get a platform event',
    description: 'Scope `read`. The envelope exactly as webhooks deliver it.',
    tags: ['events'],
    operationId: 'getEvent',
    params: eventIdParams,
    responses: {
      200: { description: 'The event.', schema: platformEventSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`EVENT_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(
    @Param() params: z.output<typeof eventIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<PlatformEventEnvelope> {
    return this.queries.execute(new GetEventQuery(principal.accountId, params.id));
  }
}
