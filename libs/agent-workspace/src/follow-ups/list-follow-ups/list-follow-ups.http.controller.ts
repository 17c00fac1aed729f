import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { followUpPageSchema } from '../../workspace.response-schemas.js';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { pageQuery, workspaceCompanyParams } from '../../workspace.schemas.js';
import { ListFollowUpsQuery } from './list-follow-ups.query.js';

@Controller('api/v1/workspace/companies')
export class ListFollowUpsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/follow-ups')
  @WorkspaceRoute('read.workspace.company')
  @Operation({
    summary: 'A company’s follow-ups, soonest due first',
    description: 'Meter `read.workspace.company`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListFollowUps',
    params: workspaceCompanyParams,
    query: pageQuery,
    responses: {
      200: {
        description: 'A page of follow-ups ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(followUpPageSchema, 'WorkspaceFollowUpPageResponse'),
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
      await this.queries.execute(new ListFollowUpsQuery(tenant.tenantId, params.id, query.limit, query.cursor)),
    );
  }
}
