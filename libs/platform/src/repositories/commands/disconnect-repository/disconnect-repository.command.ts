import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';

export class DisconnectRepositoryCommand extends Command<void> {
  constructor(
    readonly input: { accountId: string; repositoryId: string; by: string | null },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
