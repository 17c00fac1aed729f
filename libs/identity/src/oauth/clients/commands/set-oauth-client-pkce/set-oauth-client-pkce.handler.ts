import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, isId } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { oauthClientDecider } from '../../oauth-client.decider.js';
import { type OAuthClientPkce, oauthClientStream } from '../../oauth-client.events.js';
import { OAUTH_CLIENTS_PROJECTION } from '../../oauth-clients.projection.js';
import { SetOAuthClientPkceCommand } from './set-oauth-client-pkce.command.js';

@CommandHandler(SetOAuthClientPkceCommand)
export class SetOAuthClientPkceHandler implements ICommandHandler<SetOAuthClientPkceCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input, options }: SetOAuthClientPkceCommand): Promise<{ clientId: string; pkce: OAuthClientPkce }> {
    if (!isId(input.clientId, 'oac')) throw Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
    const { position } = await decideAndAppend(this.events, oauthClientStream(input.clientId), oauthClientDecider, {
      type: 'SetOAuthClientPkce',
      accountId: input.accountId,
      pkce: input.pkce,
      by: input.by,
      now: this.clock.now(),
    });
    await this.readYourWrites.waitFor(position, [OAUTH_CLIENTS_PROJECTION], options);
    return { clientId: input.clientId, pkce: input.pkce };
  }
}
