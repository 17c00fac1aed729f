import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { analysisViewSchema, type AnalysisView, repositoryIdParams } from '../../repository.view.js';
import { ListAnalysesQuery } from './list-analyses.query.js';

@Controller('v1/repositories')
@PlatformAuth()
export class ListAnalysesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/analyses')
  @RequireScope('read')
  @Operation({
    summary: "List a repository's analyses",
    description: 'Scope `read`. Newest first. Paginated by `limit` and `cursor`.',
    tags: ['repositories'],
    operationId: 'listRepositoryAnalyses',
    params: repositoryIdParams,
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of analyses.',
        schema: listPageSchema(analysisViewSchema).meta({ id: 'RepositoryAnalysisList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: '`REPOSITORY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Param() params: z.output<typeof repositoryIdParams>,
    @Query() query: z.output<typeof listQuerySchema>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<AnalysisView>> {
    return this.queries.execute(new ListAnalysesQuery(principal.accountId, params.id, query.limit, query.cursor));
  }
}
