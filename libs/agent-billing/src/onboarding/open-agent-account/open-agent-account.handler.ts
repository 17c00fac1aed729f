import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { CreateApiKeyCommand } from '#access';
import { CheckoutService } from '../../checkout/checkout.service.js';
import { findPack, packForObjective, toObjective } from '#agent-contract';
import { AgentAccounts } from '../../accounts/agent-accounts.js';
import { AGENT_KEY_SCOPES } from '../../accounts/agent-key-scopes.js';
import { OpenAgentAccountCommand, type OpenedAgentAccount } from './open-agent-account.command.js';

export { AGENT_KEY_SCOPES };

/**
 * Opens the account (stream `agentaccount-{id}`), issues its first key through the platform's
 * key command (an `apikey-{id}` stream with surface `agent`, D1: it works on /api/v1 only, and
 * the handler waits until the api-keys read model knows it) and opens the starter checkout
 * bound to account and key.
 */
@CommandHandler(OpenAgentAccountCommand)
export class OpenAgentAccountHandler implements ICommandHandler<OpenAgentAccountCommand, OpenedAgentAccount> {
  constructor(
    private readonly accounts: AgentAccounts,
    private readonly commands: CommandBus,
    private readonly checkouts: CheckoutService,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ input }: OpenAgentAccountCommand): Promise<OpenedAgentAccount> {
    const pack = findPack(input.packId ?? packForObjective(input.objective))!;
    const accountId = this.ids.next('acct');
    const now = this.clock.now();
    const objective = toObjective(input.objective) ?? 'starter';
    await this.accounts.decide(accountId, {
      type: 'OpenAgentAccount',
      accountId,
      origin: input.origin,
      environment: this.config.env,
      contactEmail: input.contactEmail,
      agentName: input.agentName,
      useCase: input.useCase,
      objective,
      packId: pack.pack_id,
      source: input.source,
      sourceRef: input.sourceRef,
      now,
    });
    const key = await this.commands.execute(
      new CreateApiKeyCommand({
        accountId,
        name: input.agentName ?? `agent key (${input.origin})`,
        scopes: AGENT_KEY_SCOPES,
        surface: 'agent',
        creator: { operator: true },
      }),
    );
    // From its first key on, the account's stream knows its active keys (LAST_ACTIVE_KEY).
    await this.accounts.decide(accountId, { type: 'RecordAgentKeyIssued', keyId: key.id, knownActiveKeyIds: [], now });
    const checkout = await this.checkouts.open({
      accountId,
      keyId: key.id,
      pack,
      purpose: 'starter',
      objective,
      source: input.source,
      email: input.contactEmail,
      baseUrl: input.baseUrl,
    });
    return {
      accountId,
      key: { id: key.id, apiKey: key.key, prefix: key.prefix, createdAt: key.created_at },
      checkout: { ...checkout, provider: this.checkouts.providerName },
      packId: pack.pack_id,
      objective,
      openedAt: now.toISOString(),
    };
  }
}
