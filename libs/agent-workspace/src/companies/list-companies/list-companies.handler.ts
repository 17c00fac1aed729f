import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Filter, Sort } from '#documents';
import type { ListPage } from '#http';
import { Errors } from '#kernel';
import { COMPANIES_COLLECTION, type WorkspaceCompanyDoc } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { companyView, type WorkspaceCompanyView } from '../../workspace.views.js';
import { ListWorkspaceCompaniesQuery } from './list-companies.query.js';

/** How many of a tenant's companies are read to name the values a filter could take. */
const VALUES_SCAN = 1000;
const VALUES_NAMED = 20;

@QueryHandler(ListWorkspaceCompaniesQuery)
export class ListWorkspaceCompaniesHandler implements IQueryHandler<
  ListWorkspaceCompaniesQuery,
  ListPage<WorkspaceCompanyView>
> {
  constructor(private readonly reads: WorkspaceReads) {}

  async execute({ tenantId, params }: ListWorkspaceCompaniesQuery): Promise<ListPage<WorkspaceCompanyView>> {
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
    const page = await this.reads.page<WorkspaceCompanyDoc, WorkspaceCompanyView>(
      COMPANIES_COLLECTION,
      filter,
      sort,
      { limit: params.limit, cursor: params.cursor },
      companyView,
    );
    if (page.data.length === 0 && !params.cursor) await this.refuseUnknownValues(tenantId, params);
    return page;
  }

  /**
   * stage and owner are the tenant's own words: a value no company of the workspace has is a
   * typo, refused for free with the values there are, never an empty, paid page. A
   * prefix search (q) with no match is an answer.
   */
  private async refuseUnknownValues(tenantId: string, params: ListWorkspaceCompaniesQuery['params']): Promise<void> {
    const asked = (['stage', 'owner'] as const).flatMap((field) => {
      const value = params[field];
      return value === undefined ? [] : [[field, value] as const];
    });
    if (asked.length === 0) return;
    const companies = this.reads.collection<WorkspaceCompanyDoc>(COMPANIES_COLLECTION);
    const details = [];
    for (const [field, value] of asked) {
      const found = await companies.find({ tenant_id: tenantId, [field]: value }, { limit: 1 });
      if (found.items.length) continue;
      const all = await companies.find({ tenant_id: tenantId }, { limit: VALUES_SCAN });
      const values = [...new Set(all.items.map((c) => c[field]).filter((v): v is string => !!v))].sort();
      details.push({
        path: `query.${field}`,
        message: values.length
          ? `no company of your workspace has this ${field}; the ${field}s there are: ${values.slice(0, VALUES_NAMED).join(', ')}${values.length > VALUES_NAMED ? ', …' : ''}`
          : `no company of your workspace has a ${field} yet`,
      });
    }
    if (details.length) throw Errors.validation(details);
  }
}
