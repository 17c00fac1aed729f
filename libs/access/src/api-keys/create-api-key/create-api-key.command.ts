import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { Creator } from '../api-key.decider.js';
import type { KeySurface } from '../api-key.events.js';

/** The new key, its value included: the only time the value exists outside the caller. */
export interface CreatedApiKey {
  id: string;
  key: string;
  account_id: string;
  name: string;
  scopes: string[];
  prefix: string;
  surface: KeySurface;
  created_at: string;
  position: number;
}

export class CreateApiKeyCommand extends Command<CreatedApiKey> {
  constructor(
    readonly input: {
      accountId: string;
      name: string;
      scopes: string[];
      /** Default `platform`. */
      surface?: KeySurface;
      /** The key (or token) that asks, or `{operator: true}` for the bootstrap and the CLI. */
      creator: Creator;
      /** Preassigned id (bootstrap); default a new one. */
      keyId?: string;
    },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
