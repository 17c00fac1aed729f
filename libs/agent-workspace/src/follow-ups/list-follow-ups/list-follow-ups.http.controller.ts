import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope } from '#agent-contract';
import { followUpPageSchema } from '../../workspace.response-schemas.js';
import { WorkspaceRoute } from '../../auth/workspace.guard.js';
import { type CompanyPage, companyPageOperation, RequestedCompanyPage } from '../../companies/company-page.js';
import { ListFollowUpsQuery } from './list-follow-ups.query.js';

@Controller('api/v1/workspace/companies')
export class ListFollowUpsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/follow-ups')
  @WorkspaceRoute('read.workspace.company')
  @Operation(
    companyPageOperation({
      summary: 'A company’s follow-ups, soonest due first',
      description: 'Meter `read.workspace.company`.',
      operationId: 'workspaceListFollowUps',
      items: 'follow-ups',
      page: followUpPageSchema,
      responseId: 'WorkspaceFollowUpPageResponse',
    }),
  )
  async list(@RequestedCompanyPage() page: CompanyPage) {
    return agentEnvelope(this.clock.now(), await this.queries.execute(new ListFollowUpsQuery(page)));
  }
}
