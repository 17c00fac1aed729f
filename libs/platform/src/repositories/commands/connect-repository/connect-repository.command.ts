import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { RepositoryProvider } from '../../repository.events.js';
import type { RepositoryView } from '../../repository.view.js';

export class ConnectRepositoryCommand extends Command<RepositoryView> {
  constructor(
    readonly input: {
      accountId: string;
      name: string;
      provider: RepositoryProvider;
      url?: string | undefined;
      by: string | null;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
