import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { ApprovalStatus } from '../../approval.events.js';
import type { ApprovalView } from '../../approval.view.js';

export class ListApprovalsQuery extends Query<ListPage<ApprovalView>> {
  constructor(
    readonly accountId: string,
    readonly status: ApprovalStatus | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
