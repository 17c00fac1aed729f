import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryIdParams } from '../../../repositories/repository.view.js';
import { securityScanSchema, type SecurityScanView } from '../../security.view.js';
import { ListScansQuery } from './list-scans.query.js';

@Controller('v1/repositories')
@PlatformAuth()
export class ListScansController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/security-scans')
  @RequireScope('read')
  @Operation({
    summary: "List a repository's security scans",
    description: 'Scope `read`. Newest first. Paginated by `limit` and `cursor`.',
    tags: ['security'],
    operationId: 'listSecurityScans',
    params: repositoryIdParams,
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of scans.',
        schema: listPageSchema(securityScanSchema).meta({ id: 'SecurityScanList' }),
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
  ): Promise<ListPage<SecurityScanView>> {
    return this.queries.execute(new ListScansQuery(principal.accountId, params.id, query.limit, query.cursor));
  }
}
