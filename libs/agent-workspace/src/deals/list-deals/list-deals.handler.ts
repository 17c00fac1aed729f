import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Filter } from '#documents';
import type { ListPage } from '#http';
import { DEALS_COLLECTION, type DealDoc } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type DealView, dealView } from '../../workspace.views.js';
import { ListDealsQuery } from './list-deals.query.js';

@QueryHandler(ListDealsQuery)
export class ListDealsHandler implements IQueryHandler<ListDealsQuery, ListPage<DealView>> {
  constructor(private readonly reads: WorkspaceReads) {}

  execute({ tenantId, stage, limit, cursor }: ListDealsQuery): Promise<ListPage<DealView>> {
    const filter: Filter = { tenant_id: tenantId };
    if (stage) filter.stage = stage;
    return this.reads.page<DealDoc, DealView>(
      DEALS_COLLECTION,
      filter,
      [['created_at', -1]],
      { limit, cursor },
      dealView,
    );
  }
}
