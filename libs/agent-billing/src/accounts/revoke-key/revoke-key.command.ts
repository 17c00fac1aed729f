import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';

/** Revoke a key of the requester's account; never its last active key (409 LAST_ACTIVE_KEY). */
export class RevokeAgentKeyCommand extends Command<void> {
  constructor(
    readonly keyId: string,
    readonly requester: AgentPrincipal,
  ) {
    super();
  }
}
