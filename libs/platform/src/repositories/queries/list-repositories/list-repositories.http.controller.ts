import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryViewSchema, type RepositoryView } from '../../repository.view.js';
import { ListRepositoriesQuery } from './list-repositories.query.js';

const listRepositoriesQuery = listQuerySchema.extend({
  status: z.enum(['connected', 'disconnected', 'all']).default('connected').describe('Default `connected`.'),
});

@Controller('v1/repositories')
@PlatformAuth()
export class ListRepositoriesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List repositories',
    description:
      'Scope `read`. Connected repositories (or `status=disconnected|all`), most recently connected first. Paginated by `limit` (default 20, at most 100) and `cursor`.',
    tags: ['repositories'],
    operationId: 'listRepositories',
    query: listRepositoriesQuery,
    responses: {
      200: {
        description: 'A page of repositories.',
        schema: listPageSchema(repositoryViewSchema).meta({ id: 'RepositoryList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listRepositoriesQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<RepositoryView>> {
    return this.queries.execute(
      new ListRepositoriesQuery(principal.accountId, query.status, query.limit, query.cursor),
    );
  }
}
