import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { FOLLOW_UPS_COLLECTION, type FollowUpDoc } from '../../workspace.projection.js';
import { WorkspaceReads } from '../../workspace.reads.js';
import { type FollowUpView, followUpView } from '../../workspace.views.js';
import { ListFollowUpsQuery } from './list-follow-ups.query.js';

@QueryHandler(ListFollowUpsQuery)
export class ListFollowUpsHandler implements IQueryHandler<ListFollowUpsQuery, ListPage<FollowUpView>> {
  constructor(private readonly reads: WorkspaceReads) {}

  async execute({ tenantId, companyId, limit, cursor }: ListFollowUpsQuery): Promise<ListPage<FollowUpView>> {
    await this.reads.company(tenantId, companyId);
    return this.reads.page<FollowUpDoc, FollowUpView>(
      FOLLOW_UPS_COLLECTION,
      { tenant_id: tenantId, company_id: companyId },
      [['due_at', 1]],
      { limit, cursor },
      followUpView,
    );
  }
}
