import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { RunView } from '../../run.view.js';

export class CancelRunCommand extends Command<RunView> {
  constructor(
    readonly input: { accountId: string; runId: string; by: string | null; reason: string | null },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
