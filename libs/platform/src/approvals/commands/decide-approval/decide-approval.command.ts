import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { ApprovalView } from '../../approval.view.js';

export class DecideApprovalCommand extends Command<ApprovalView> {
  constructor(
    readonly input: {
      accountId: string;
      approvalId: string;
      decision: 'approve' | 'reject';
      comment: string | null;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
