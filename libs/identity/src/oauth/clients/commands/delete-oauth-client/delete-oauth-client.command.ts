import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';

/** Deletes an OAuth application: its grants and tokens are revoked with it. */
export class DeleteOAuthClientCommand extends Command<void> {
  constructor(
    readonly input: { accountId: string; clientId: string; by: string },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
