import { Query } from '@nestjs/cqrs';
import type { ApprovalView } from '../../approval.view.js';

export class GetApprovalQuery extends Query<ApprovalView> {
  constructor(
    readonly accountId: string,
    readonly approvalId: string,
  ) {
    super();
  }
}
