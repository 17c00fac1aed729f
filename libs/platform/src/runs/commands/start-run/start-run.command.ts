import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { PullRequestRef } from '../../run.events.js';
import type { RunView } from '../../run.view.js';

export class StartRunCommand extends Command<RunView> {
  constructor(
    readonly input: {
      accountId: string;
      agentId: string;
      repositoryId: string;
      pullRequest: PullRequestRef | null;
      ref: string | null;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
