import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { agentEnvelope } from '#agent-contract';
import { memoVersionPageSchema } from '../../workspace.response-schemas.js';
import { WorkspaceRoute } from '../../auth/workspace.guard.js';
import { type CompanyPage, companyPageOperation, RequestedCompanyPage } from '../../companies/company-page.js';
import { ListMemoVersionsQuery } from './list-memo-versions.query.js';

@Controller('api/v1/workspace/companies')
export class ListMemoVersionsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id/memo/versions')
  @WorkspaceRoute('read.workspace.memo')
  @Operation(
    companyPageOperation({
      summary: 'A memo’s versions, newest first',
      description: 'Every version ever written, from the memo’s events. Meter `read.workspace.memo`.',
      operationId: 'workspaceListMemoVersions',
      items: 'versions',
      page: memoVersionPageSchema,
      responseId: 'WorkspaceMemoVersionPageResponse',
    }),
  )
  async list(@RequestedCompanyPage() page: CompanyPage) {
    return agentEnvelope(this.clock.now(), await this.queries.execute(new ListMemoVersionsQuery(page)));
  }
}
