import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { OAuthClientPkce, OAuthClientType } from '../../oauth-client.events.js';

export interface RegisteredOAuthClient {
  clientId: string;
  /** Shown once; absent for a public client. */
  clientSecret?: string;
  name: string;
  redirectUris: string[];
  clientType: OAuthClientType;
  pkce: OAuthClientPkce;
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
      /** Default `required`; `optional` only for a confidential client (the decider says so). */
      pkce?: OAuthClientPkce;
      by: string;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
