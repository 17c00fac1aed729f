import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryIdParams, repositoryViewSchema, type RepositoryView } from '../../repository.view.js';
import { GetRepositoryQuery } from './get-repository.query.js';

@Controller('v1/repositories')
@PlatformAuth()
export class GetRepositoryController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('read')
  @Operation({
    summary: 'Get a repository',
    description: 'Scope `read`. Disconnected repositories too (status `disconnected`).',
    tags: ['repositories'],
    operationId: 'getRepository',
    params: repositoryIdParams,
    responses: {
      200: { description: 'The repository.', schema: repositoryViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`REPOSITORY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(
    @Param() params: z.output<typeof repositoryIdParams>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<RepositoryView> {
    return this.queries.execute(new GetRepositoryQuery(principal.accountId, params.id));
  }
}
