import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, isId } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { oauthClientDecider } from '../../oauth-client.decider.js';
import { generateClientSecret, hashClientSecret, oauthClientStream } from '../../oauth-client.events.js';
import { RotateOAuthClientSecretCommand } from './rotate-oauth-client-secret.command.js';

@CommandHandler(RotateOAuthClientSecretCommand)
export class RotateOAuthClientSecretHandler implements ICommandHandler<RotateOAuthClientSecretCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ input }: RotateOAuthClientSecretCommand): Promise<{ clientId: string; clientSecret: string }> {
    if (!isId(input.clientId, 'oac')) throw Errors.notFound('No such OAuth application.', 'OAUTH_CLIENT_NOT_FOUND');
    const secret = generateClientSecret();
    await decideAndAppend(this.events, oauthClientStream(input.clientId), oauthClientDecider, {
      type: 'RotateOAuthClientSecret',
      accountId: input.accountId,
      secretHash: hashClientSecret(secret),
      by: input.by,
      now: this.clock.now(),
    });
    return { clientId: input.clientId, clientSecret: secret };
  }
}
