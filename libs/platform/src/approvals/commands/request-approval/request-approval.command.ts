import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { ApprovalView } from '../../approval.view.js';

export class RequestApprovalCommand extends Command<ApprovalView> {
  constructor(
    readonly input: {
      accountId: string;
      action: string;
      resource: { type: string; id: string };
      description: string | null;
      repositoryId: string | null;
      runId: string | null;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
