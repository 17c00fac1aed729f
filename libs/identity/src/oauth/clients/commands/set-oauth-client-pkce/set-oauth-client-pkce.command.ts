import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { OAuthClientPkce } from '../../oauth-client.events.js';

/**
 * Requires PKCE of a client again, or lets a confidential one skip it (ADR 0075). Takes effect
 * at the next authorization request: the provider reads the client from its stream.
 */
export class SetOAuthClientPkceCommand extends Command<{ clientId: string; pkce: OAuthClientPkce }> {
  constructor(
    readonly input: { accountId: string; clientId: string; pkce: OAuthClientPkce; by: string },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
