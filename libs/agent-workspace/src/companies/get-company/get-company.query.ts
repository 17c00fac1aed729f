import { Query } from '@nestjs/cqrs';
import type { WorkspaceCompanyDetailView } from '../../workspace.views.js';

/** One company of the tenant's workspace; another tenant's id is 404 like an unknown one. */
export class GetWorkspaceCompanyQuery extends Query<WorkspaceCompanyDetailView> {
  constructor(
    readonly tenantId: string,
    readonly companyId: string,
  ) {
    super();
  }
}
