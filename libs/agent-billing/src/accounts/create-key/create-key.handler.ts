import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CreateApiKeyCommand } from '#access';
import { CLOCK, type Clock } from '#kernel';
import { ProjectionStore } from '#projections';
import { AgentAccounts } from '../agent-accounts.js';
import { AGENT_KEY_SCOPES } from '../agent-key-scopes.js';
import { keySeedFor } from '../active-agent-keys.js';
import { CreateAgentKeyCommand, type CreatedAgentKey } from './create-key.command.js';

/** Creates an agent-surface key (D1) and records it in the account's active key set. */
@CommandHandler(CreateAgentKeyCommand)
export class CreateAgentKeyHandler implements ICommandHandler<CreateAgentKeyCommand, CreatedAgentKey> {
  constructor(
    private readonly commands: CommandBus,
    private readonly accounts: AgentAccounts,
    private readonly projections: ProjectionStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ requester, name }: CreateAgentKeyCommand): Promise<CreatedAgentKey> {
    const key = await this.commands.execute(
      new CreateApiKeyCommand({
        accountId: requester.accountId,
        name: name ?? 'rotated agent key',
        scopes: AGENT_KEY_SCOPES,
        surface: 'agent',
        creator: { keyId: requester.keyId, accountId: requester.accountId, scopes: [...requester.scopes] },
      }),
    );
    const known = await keySeedFor(this.accounts, this.projections, requester.accountId);
    await this.accounts.decide(requester.accountId, {
      type: 'RecordAgentKeyIssued',
      keyId: key.id,
      knownActiveKeyIds: known,
      now: this.clock.now(),
    });
    return {
      key: { id: key.id, api_key: key.key, prefix: key.prefix, name: key.name, created_at: key.created_at },
      account_id: requester.accountId,
      next: 'Move clients to the new key, then DELETE /api/v1/agents/keys/{old key id}.',
    };
  }
}
