import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WorkspaceReads } from '../../workspace.reads.js';
import { companyDetailView, type WorkspaceCompanyDetailView } from '../../workspace.views.js';
import { GetWorkspaceCompanyQuery } from './get-company.query.js';

@QueryHandler(GetWorkspaceCompanyQuery)
export class GetWorkspaceCompanyHandler implements IQueryHandler<GetWorkspaceCompanyQuery, WorkspaceCompanyDetailView> {
  constructor(private readonly reads: WorkspaceReads) {}

  async execute({ tenantId, companyId }: GetWorkspaceCompanyQuery): Promise<WorkspaceCompanyDetailView> {
    return companyDetailView(await this.reads.company(tenantId, companyId));
  }
}
