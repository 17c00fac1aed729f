import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { RevokeApiKeyCommand } from '#access';
import { CLOCK, type Clock } from '#kernel';
import { ProjectionStore } from '#projections';
import { AgentAccounts } from '../agent-accounts.js';
import { keySeedFor } from '../active-agent-keys.js';
import { RevokeAgentKeyCommand } from './revoke-key.command.js';

/**
 * First the account decides (its stream holds the active key set, appended with the expected
 * revision: of two revocations racing to remove the last keys, the second re-decides on the
 * first's result and is refused), then the key itself is revoked (which also drops it from the
 * process's key cache at once). A crash between the two leaves
 * the key working and the account counting it as gone: the safe side (no lock-out).
 */
@CommandHandler(RevokeAgentKeyCommand)
export class RevokeAgentKeyHandler implements ICommandHandler<RevokeAgentKeyCommand, void> {
  constructor(
    private readonly accounts: AgentAccounts,
    private readonly commands: CommandBus,
    private readonly projections: ProjectionStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ keyId, requester }: RevokeAgentKeyCommand): Promise<void> {
    const known = await keySeedFor(this.accounts, this.projections, requester.accountId);
    await this.accounts.decide(requester.accountId, {
      type: 'RevokeAgentKey',
      keyId,
      knownActiveKeyIds: known,
      now: this.clock.now(),
    });
    await this.commands.execute(
      new RevokeApiKeyCommand({
        keyId,
        requester: { keyId: requester.keyId, accountId: requester.accountId, scopes: [...requester.scopes] },
      }),
    );
  }
}
