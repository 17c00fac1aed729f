import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { listDealsQuery } from '../../workspace.schemas.js';
import { ListDealsQuery } from './list-deals.query.js';
import { dealPageSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/deals')
export class ListDealsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @WorkspaceRoute('read.workspace.company')
  @Operation({
    summary: 'List the workspace’s deals',
    description: 'Newest first; `stage` filters. Meter `read.workspace.company`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceListDeals',
    query: listDealsQuery,
    responses: {
      200: {
        description: 'A page of deals ({data, has_more, next_cursor}) in the envelope.',
        schema: envelopeSchema(dealPageSchema, 'WorkspaceDealPageResponse'),
      },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async list(@Query() query: z.output<typeof listDealsQuery>, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new ListDealsQuery(tenant.tenantId, query.stage, query.limit, query.cursor)),
    );
  }
}
