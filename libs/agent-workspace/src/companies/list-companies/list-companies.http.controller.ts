import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { listCompaniesQuery } from '../../workspace.schemas.js';
import { ListWorkspaceCompaniesQuery } from './list-companies.query.js';
import { workspaceCompanyPageSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/companies')
export class ListWorkspaceCompaniesController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @WorkspaceRoute('read.workspace.company')
  @Operation({
    summary: 'List the workspace’s companies',
    description:
      'Newest first; `stage` and `owner` filter, `q` matches the start of the name (then in name order). Meter `read.workspace.company` per successful call.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListCompanies',
    query: listCompaniesQuery,
    responses: {
      200: {
        description: 'A page of companies ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(workspaceCompanyPageSchema, 'WorkspaceCompanyPageResponse'),
      },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(@Query() query: z.output<typeof listCompaniesQuery>, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new ListWorkspaceCompaniesQuery(tenant.tenantId, query)),
    );
  }
}
