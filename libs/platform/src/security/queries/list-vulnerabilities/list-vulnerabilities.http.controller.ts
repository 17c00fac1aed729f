import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { repositoryIdParams } from '../../../repositories/repository.view.js';
import { SEVERITIES } from '../../security.events.js';
import { vulnerabilityAlertSchema, type VulnerabilityAlertView } from '../../security.view.js';
import { ListVulnerabilitiesQuery } from './list-vulnerabilities.query.js';

const listVulnerabilitiesQuery = listQuerySchema.extend({
  state: z.enum(['open', 'resolved', 'all']).default('open').describe('Default `open`.'),
  severity: z.enum(SEVERITIES).optional(),
});

@Controller('v1/repositories')
@PlatformAuth()
export class ListVulnerabilitiesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id/vulnerabilities')
  @RequireScope('read')
  @Operation({
    summary: "List a repository's vulnerabilities",
    description:
      'Scope `read`. Open alerts by default (`state=resolved|all` for history), most severe first, then newest. Paginated by `limit` and `cursor`.',
    tags: ['security'],
    operationId: 'listRepositoryVulnerabilities',
    params: repositoryIdParams,
    query: listVulnerabilitiesQuery,
    responses: {
      200: {
        description: 'A page of alerts.',
        schema: listPageSchema(vulnerabilityAlertSchema).meta({ id: 'VulnerabilityAlertList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      404: { description: '`REPOSITORY_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Param() params: z.output<typeof repositoryIdParams>,
    @Query() query: z.output<typeof listVulnerabilitiesQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<VulnerabilityAlertView>> {
    return this.queries.execute(
      new ListVulnerabilitiesQuery(
        principal.accountId,
        params.id,
        query.state,
        query.severity,
        query.limit,
        query.cursor,
      ),
    );
  }
}
