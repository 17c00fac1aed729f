import { Controller, Get, Inject, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope, envelopeSchema } from '#agent-contract';
import { CurrentTenant, type TenantCaller, WorkspaceRoute } from '../../auth/workspace.guard.js';
import { WORKSPACE_RESPONSES, WORKSPACE_SECURITY, WORKSPACE_TAGS } from '../../workspace.responses.js';
import { workspaceCompanyParams } from '../../workspace.schemas.js';
import { GetWorkspaceCompanyQuery } from './get-company.query.js';
import { workspaceCompanyDetailSchema } from '../../workspace.response-schemas.js';

@Controller('api/v1/workspace/companies')
export class GetWorkspaceCompanyController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id')
  @WorkspaceRoute('read.workspace.company')
  @Operation({
    summary: 'One workspace company',
    description: 'With the profile and score copied when it was added. Meter `read.workspace.company`.',
    tags: WORKSPACE_TAGS,
    operationId: 'workspaceGetCompany',
    params: workspaceCompanyParams,
    responses: {
      200: {
        description: 'The company in the envelope.',
        schema: envelopeSchema(workspaceCompanyDetailSchema, 'WorkspaceCompanyDetailResponse'),
      },
      404: { description: 'WORKSPACE_COMPANY_NOT_FOUND; not charged.' },
      ...WORKSPACE_RESPONSES,
    },
    security: WORKSPACE_SECURITY,
  })
  async get(@Param() params: z.output<typeof workspaceCompanyParams>, @CurrentTenant() tenant: TenantCaller) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new GetWorkspaceCompanyQuery(tenant.tenantId, params.id)),
    );
  }
}
