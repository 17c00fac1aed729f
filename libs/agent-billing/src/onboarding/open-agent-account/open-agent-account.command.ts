import { Command } from '@nestjs/cqrs';
import type { AccountOrigin } from '../../accounts/agent-account.events.js';
import type { PackId } from '#agent-contract';

export interface OpenedAgentAccount {
  accountId: string;
  key: { id: string; apiKey: string; prefix: string; createdAt: string };
  checkout: { id: string; url: string; expiresAt: string | null; provider: string };
  packId: PackId;
  objective: string;
  openedAt: string;
}

/** POST /agents/pay and POST /agents/signup (D15): an account, its first key and a starter checkout. */
export class OpenAgentAccountCommand extends Command<OpenedAgentAccount> {
  constructor(
    readonly input: {
      origin: AccountOrigin;
      contactEmail: string | null;
      agentName: string | null;
      useCase: string | null;
      objective: string | null;
      /** The starter checkout's pack; null: the objective's pack, else the starter pack. */
      packId: PackId | null;
      source: string | null;
      sourceRef: string | null;
      baseUrl: string;
    },
  ) {
    super();
  }
}
