import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, isId } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { ApiKeyAuthenticator } from '../api-key-authenticator.js';
import { apiKeyDecider } from '../api-key.decider.js';
import { apiKeyStream } from '../api-key.events.js';
import { API_KEYS_PROJECTION } from '../api-keys.projection.js';
import { RevokeApiKeyCommand, type RevokeApiKeyResult } from './revoke-api-key.command.js';

/**
 * Appends ApiKeyRevoked and makes this process refuse the key at once (before the read model
 * shows it); other processes refuse it once their cache entry (≤ 1 s) expires after the
 * projection applied the event.
 */
@CommandHandler(RevokeApiKeyCommand)
export class RevokeApiKeyHandler implements ICommandHandler<RevokeApiKeyCommand, RevokeApiKeyResult> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly authenticator: ApiKeyAuthenticator,
  ) {}

  async execute({ input, options }: RevokeApiKeyCommand): Promise<RevokeApiKeyResult> {
    if (!isId(input.keyId, 'key')) throw Errors.notFound('No such API key.', 'KEY_NOT_FOUND');
    const { events, position } = await decideAndAppend(this.events, apiKeyStream(input.keyId), apiKeyDecider, {
      type: 'RevokeApiKey',
      keyId: input.keyId,
      requester: input.requester,
      now: this.clock.now(),
    });
    const revoked = events[0];
    if (revoked?.type !== 'ApiKeyRevoked' || position === null)
      throw new Error('RevokeApiKey produced no ApiKeyRevoked event');
    this.authenticator.revoked(input.keyId);
    await this.readYourWrites.waitFor(position, [API_KEYS_PROJECTION], options);
    return { keyId: input.keyId, accountId: revoked.data.account_id, position };
  }
}
