import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { Finding } from '../../run.events.js';
import type { RunView } from '../../run.view.js';

export class CompleteRunCommand extends Command<RunView> {
  constructor(
    readonly input: { accountId: string; runId: string; by: string; findings: Finding[]; summary: string | null },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
