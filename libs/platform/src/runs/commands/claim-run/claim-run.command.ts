import { Command } from '@nestjs/cqrs';
import type { AgentTemplate } from '../../../agents/agent-templates.js';
import type { CommandOptions } from '#projections';
import type { RunView } from '../../run.view.js';

/** Claim one given queued run: queued → running (`agent.started`). */
export class ClaimRunCommand extends Command<RunView> {
  constructor(
    readonly input: { accountId: string; runId: string; by: string },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}

/** Claim the oldest queued run that matches, or none (null). */
export class ClaimNextRunCommand extends Command<RunView | null> {
  constructor(
    readonly input: {
      accountId: string;
      by: string;
      agentId?: string | undefined;
      repositoryId?: string | undefined;
      template?: AgentTemplate | undefined;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
