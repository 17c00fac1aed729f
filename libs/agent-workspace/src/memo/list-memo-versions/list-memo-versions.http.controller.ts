import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { memoVersionPageSchema } from '../../workspace.response-schemas.js';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { pageQuery, workspaceCompanyParams } from '../../workspace.schemas.js';
import { ListMemoVersionsQuery } from './list-memo-versions.query.js';

@Controller('api/v1/workspace/companies')
export class ListMemoVersionsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/memo/versions')
  @WorkspaceRoute('read.workspace.memo')
  @Operation({
    summary: 'A memo’s versions, newest first',
    description: 'Every version ever written, from the memo’s events. Meter `read.workspace.memo`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListMemoVersions',
    params: workspaceCompanyParams,
    query: pageQuery,
    responses: {
      200: {
        description: 'A page of versions ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(memoVersionPageSchema, 'WorkspaceMemoVersionPageResponse'),
      },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(
    @Param() params: z.output<typeof workspaceCompanyParams>,
    @Query() query: z.output<typeof pageQuery>,
    @CurrentTenant() tenant: TenantCaller,
  ) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new ListMemoVersionsQuery(tenant.tenantId, params.id, query.limit, query.cursor)),
    );
  }
}
