import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { RunView } from '../../run.view.js';

export class FailRunCommand extends Command<RunView> {
  constructor(
    readonly input: { accountId: string; runId: string; by: string; error: { code: string | null; message: string } },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
