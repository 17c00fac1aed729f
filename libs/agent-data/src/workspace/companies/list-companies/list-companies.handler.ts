import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Filter, Sort } from '#documents';
import type { ListPage } from '#http';
import { COMPANIES_COLLECTION, type WorkspaceCompanyDoc } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { companyView, type WorkspaceCompanyView } from '../../workspace.views.js';
import { ListWorkspaceCompaniesQuery } from './list-companies.query.js';

@QueryHandler(ListWorkspaceCompaniesQuery)
export class ListWorkspaceCompaniesHandler implements IQueryHandler<
  ListWorkspaceCompaniesQuery,
  ListPage<WorkspaceCompanyView>
> {
  constructor(private readonly reads: WorkspaceReads) {}

  execute({ tenantId, params }: ListWorkspaceCompaniesQuery): Promise<ListPage<WorkspaceCompanyView>> {
    const filter: Filter = { tenant_id: tenantId };
    if (params.stage) filter.stage = params.stage;
    if (params.owner) filter.owner = params.owner;
    let sort: Sort = [['added_at', -1]];
    if (params.q) {
      // A name prefix: the range [q, q + U+FFFF) of lower-case names, in name order.
      const q = params.q.toLowerCase();
      filter.name_key = { $gte: q, $lt: `${q}\uffff` };
      sort = [['name_key', 1]];
    }
    return this.reads.page<WorkspaceCompanyDoc, WorkspaceCompanyView>(
      COMPANIES_COLLECTION,
      filter,
      sort,
      { limit: params.limit, cursor: params.cursor },
      companyView,
    );
  }
}
