import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { OAuthClientType } from '../../oauth-client.events.js';

export interface RegisteredOAuthClient {
  clientId: string;
  /** Shown once; absent for a public client. */
  clientSecret?: string;
  name: string;
  redirectUris: string[];
  clientType: OAuthClientType;
  position: number | null;
}

/** Registers an OAuth application of an account (dashboard or CLI). */
export class RegisterOAuthClientCommand extends Command<RegisteredOAuthClient> {
  constructor(
    readonly input: {
      accountId: string;
      name: string;
      redirectUris: string[];
      clientType: OAuthClientType;
      by: string;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
