import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { FINDING_LEVELS } from '../../run.events.js';
import { findingViewSchema, type FindingView, runIdParams } from '../../run.view.js';
import { ListRunFindingsQuery } from './list-run-findings.query.js';

const listFindingsQuery = listQuerySchema.extend({ level: z.enum(FINDING_LEVELS).optional() });

@Controller('v1/runs')
@PlatformAuth()
export class ListRunFindingsController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/findings')
  @RequireScope('read')
  @Operation({
    summary: "List a run's findings",
    description:
      'Scope `read`. In the order the runner reported them, optionally of one `level`. Paginated by `limit` and `cursor`.',
    tags: ['runs'],
    operationId: 'listRunFindings',
    params: runIdParams,
    query: listFindingsQuery,
    responses: {
      200: {
        description: 'A page of findings.',
        schema: listPageSchema(findingViewSchema).meta({ id: 'FindingList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: '`RUN_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Param() params: z.output<typeof runIdParams>,
    @Query() query: z.output<typeof listFindingsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<FindingView>> {
    return this.queries.execute(
      new ListRunFindingsQuery(principal.accountId, params.id, query.level, query.limit, query.cursor),
    );
  }
}
