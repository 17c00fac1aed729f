import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';

export interface CreatedAgentKey {
  key: { id: string; api_key: string; prefix: string; name: string; created_at: string };
  account_id: string;
  next: string;
}

/** Issue another key for the requester's account (rotation); the value is returned once. */
export class CreateAgentKeyCommand extends Command<CreatedAgentKey> {
  constructor(
    readonly requester: AgentPrincipal,
    readonly name: string | undefined,
  ) {
    super();
  }
}
