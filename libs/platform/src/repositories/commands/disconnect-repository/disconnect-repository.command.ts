import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '../../../shared/read-your-writes.js';

export class DisconnectRepositoryCommand extends Command<void> {
  constructor(
    readonly input: { accountId: string; repositoryId: string; by: string | null },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
