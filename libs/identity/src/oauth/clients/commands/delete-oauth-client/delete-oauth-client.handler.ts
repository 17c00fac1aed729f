import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, isId } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { OAuthStorage } from '../../../server/oauth-storage.js';
import { oauthClientDecider } from '../../oauth-client.decider.js';
import { oauthClientStream } from '../../oauth-client.events.js';
import { OAUTH_CLIENTS_PROJECTION } from '../../oauth-clients.projection.js';
import { DeleteOAuthClientCommand } from './delete-oauth-client.command.js';

@CommandHandler(DeleteOAuthClientCommand)
export class DeleteOAuthClientHandler implements ICommandHandler<DeleteOAuthClientCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
    private readonly storage: OAuthStorage,
  ) {}

  async execute({ input, options }: DeleteOAuthClientCommand): Promise<void> {
    if (!isId(input.clientId, 'oac')) throw Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
    const { position } = await decideAndAppend(this.events, oauthClientStream(input.clientId), oauthClientDecider, {
      type: 'DeleteOAuthClient',
      accountId: input.accountId,
      by: input.by,
      now: this.clock.now(),
    });
    // The deletion event stops its tokens on every instance (OAuthRevocationWatch); the stored
    // codes, tokens and grants go too.
    await this.storage.forgetClient(input.clientId);
    await this.readYourWrites.waitFor(position, [OAUTH_CLIENTS_PROJECTION], options);
  }
}
