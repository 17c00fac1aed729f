import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { AgentView } from '../../agent.view.js';

export class CreateAgentCommand extends Command<AgentView> {
  constructor(
    readonly input: {
      accountId: string;
      name: string;
      template: string;
      config: Record<string, unknown>;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
