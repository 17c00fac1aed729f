import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { generateApiKey, parseApiKey } from '../../keys/api-key-format.js';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { apiKeyDecider } from '../api-key.decider.js';
import { apiKeyStream } from '../api-key.events.js';
import { API_KEYS_PROJECTION } from '../api-keys.projection.js';
import { KEY_ACCOUNTS, type KeyAccounts } from '../key-accounts.port.js';
import { CreateApiKeyCommand, type CreatedApiKey } from './create-api-key.command.js';

/**
 * Generates the key value (D2, the deployment's environment), stores only its SHA-256 in an
 * `apikey-{id}` stream and returns the value once. The account must be able to hold keys of the
 * surface (KEY_ACCOUNTS: the platform checks its accounts; agent-billing checks its own before).
 */
@CommandHandler(CreateApiKeyCommand)
export class CreateApiKeyHandler implements ICommandHandler<CreateApiKeyCommand, CreatedApiKey> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'env'>,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(KEY_ACCOUNTS) private readonly accounts: KeyAccounts,
  ) {}

  async execute({ input, options }: CreateApiKeyCommand): Promise<CreatedApiKey> {
    const surface = input.surface ?? 'platform';
    await this.accounts.assertCanHoldKeys(surface, input.accountId);
    const keyId = input.keyId ?? this.ids.next('key');
    const key = generateApiKey(this.config.env);
    const parsed = parseApiKey(key);
    if (!parsed.ok) throw new Error('generated an API key that does not parse');
    const { events, position } = await decideAndAppend(this.events, apiKeyStream(keyId), apiKeyDecider, {
      type: 'CreateApiKey',
      keyId,
      accountId: input.accountId,
      name: input.name,
      scopes: input.scopes,
      keyHash: parsed.hash,
      displayPrefix: parsed.displayPrefix,
      surface,
      environment: this.config.env,
      creator: input.creator,
      now: this.clock.now(),
    });
    const created = events[0];
    if (created?.type !== 'ApiKeyCreated' || position === null)
      throw new Error('CreateApiKey produced no ApiKeyCreated event');
    await this.readYourWrites.waitFor(position, [API_KEYS_PROJECTION], options);
    return {
      id: keyId,
      key,
      account_id: created.data.account_id,
      name: created.data.name,
      scopes: created.data.scopes,
      prefix: created.data.display_prefix,
      surface,
      created_at: created.data.created_at,
      position,
    };
  }
}
