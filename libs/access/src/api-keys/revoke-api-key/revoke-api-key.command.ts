import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { Creator } from '../api-key.decider.js';

export interface RevokeApiKeyResult {
  keyId: string;
  accountId: string;
  position: number;
}

export class RevokeApiKeyCommand extends Command<RevokeApiKeyResult> {
  constructor(
    readonly input: { keyId: string; requester: Creator },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
