import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import {
  isPlatformEventType,
  PLATFORM_EVENT_TYPES,
  type PlatformEventEnvelope,
  type PlatformEventType,
} from '../../platform-event.js';
import { platformEventSchema } from '../../platform-event.schemas.js';
import { ListEventsQuery } from './list-events.query.js';

const listEventsQuery = listQuerySchema.extend({
  type: z
    .string()
    .max(500)
    .refine((v) => v.split(',').every((t) => isPlatformEventType(t.trim())), {
      message: `a comma-separated list of: ${PLATFORM_EVENT_TYPES.join(', ')}`,
    })
    .optional()
    .describe('Only these event types (comma-separated, e.g. `agent.completed,agent.failed`).'),
  repository: z
    .string()
    .min(1)
    .max(210)
    .optional()
    .describe(
      'Only events about this repository: its id (`repo_…`) or its `owner/repo` name (every connection of that name).',
    ),
});

@Controller('v1/events')
@PlatformAuth()
export class ListEventsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List platform events',
    description:
      'Scope `read`. The events webhooks deliver, in the same envelope (`id`, `type`, `created`, `data`, `repository`), newest first, so an integrator can catch up without webhooks: page until an `id` already seen. Filter by `type` and `repository`. Paginated by `limit` (default 20, at most 100) and `cursor`.',
    tags: ['events'],
    operationId: 'listEvents',
    query: listEventsQuery,
    responses: {
      200: {
        description: 'A page of events.',
        schema: listPageSchema(platformEventSchema).meta({ id: 'PlatformEventList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listEventsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<PlatformEventEnvelope>> {
    const types = query.type
      ? ([...new Set(query.type.split(',').map((t) => t.trim()))] as PlatformEventType[])
      : undefined;
    return this.queries.execute(
      new ListEventsQuery(principal.accountId, { types, repository: query.repository }, query.limit, query.cursor),
    );
  }
}
