import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { FollowUpView } from '../../workspace.views.js';

/** A workspace company's follow-ups, soonest due first. */
export class ListFollowUpsQuery extends Query<ListPage<FollowUpView>> {
  constructor(
    readonly tenantId: string,
    readonly companyId: string,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
