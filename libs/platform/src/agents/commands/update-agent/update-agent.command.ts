import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { AgentView } from '../../agent.view.js';

export class UpdateAgentCommand extends Command<AgentView> {
  constructor(
    readonly input: {
      accountId: string;
      agentId: string;
      name?: string | undefined;
      config?: Record<string, unknown> | undefined;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
