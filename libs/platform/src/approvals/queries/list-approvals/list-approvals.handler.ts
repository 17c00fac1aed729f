import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { type ListPage } from '#http';
import type { Filter } from '#documents';
import { findPage } from '../../../shared/find-page.js';
import { ApprovalLookup } from '../../approval-lookup.js';
import { type ApprovalView, toApprovalView } from '../../approval.view.js';
import { ListApprovalsQuery } from './list-approvals.query.js';

/**
 * The account's approvals, newest first. `status=pending` leaves out those whose deadline has
 * passed; `status=expired` shows those the sweeper has recorded (within its 30 s period).
 */
@QueryHandler(ListApprovalsQuery)
export class ListApprovalsHandler implements IQueryHandler<ListApprovalsQuery, ListPage<ApprovalView>> {
  constructor(
    private readonly approvals: ApprovalLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(query: ListApprovalsQuery): Promise<ListPage<ApprovalView>> {
    const now = this.clock.now();
    const filter: Filter = { account_id: query.accountId };
    if (query.status) filter.status = query.status;
    if (query.status === 'pending') filter.expires_at = { $gt: now.toISOString() };
    return findPage(this.approvals.collection(), filter, [['requested_at', -1]], query, (doc) =>
      toApprovalView(doc, now),
    );
  }
}
