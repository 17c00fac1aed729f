import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { ApprovalLookup } from '../../approval-lookup.js';
import { type ApprovalView, toApprovalView } from '../../approval.view.js';
import { GetApprovalQuery } from './get-approval.query.js';

@QueryHandler(GetApprovalQuery)
export class GetApprovalHandler implements IQueryHandler<GetApprovalQuery, ApprovalView> {
  constructor(
    private readonly approvals: ApprovalLookup,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(query: GetApprovalQuery): Promise<ApprovalView> {
    return toApprovalView(await this.approvals.get(query.accountId, query.approvalId), this.clock.now());
  }
}
