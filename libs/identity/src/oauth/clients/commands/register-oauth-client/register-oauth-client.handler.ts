import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { accountDecider } from '../../../../accounts/account.decider.js';
import { accountStream } from '../../../../accounts/account.events.js';
import { ReadYourWrites } from '#projections';
import { oauthClientDecider } from '../../oauth-client.decider.js';
import { generateClientSecret, hashClientSecret, oauthClientStream } from '../../oauth-client.events.js';
import { OAUTH_CLIENTS_PROJECTION } from '../../oauth-clients.projection.js';
import { RegisterOAuthClientCommand, type RegisteredOAuthClient } from './register-oauth-client.command.js';

@CommandHandler(RegisterOAuthClientCommand)
export class RegisterOAuthClientHandler implements ICommandHandler<RegisterOAuthClientCommand, RegisteredOAuthClient> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input, options }: RegisterOAuthClientCommand): Promise<RegisteredOAuthClient> {
    const { state: account } = await loadState(this.events, accountStream(input.accountId), accountDecider);
    if (account.status !== 'active') throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');
    const clientId = this.ids.next('oac');
    const secret = input.clientType === 'confidential' ? generateClientSecret() : undefined;
    const { position, state } = await decideAndAppend(
      this.events,
      oauthClientStream(clientId),
      oauthClientDecider,
      {
        type: 'RegisterOAuthClient',
        clientId,
        accountId: input.accountId,
        name: input.name,
        redirectUris: input.redirectUris,
        clientType: input.clientType,
        secretHash: secret === undefined ? null : hashClientSecret(secret),
        pkce: input.pkce ?? 'required',
        by: input.by,
        now: this.clock.now(),
      },
      { known: { state: oauthClientDecider.initialState, revision: null } },
    );
    await this.readYourWrites.waitFor(position, [OAUTH_CLIENTS_PROJECTION], options);
    if (state.status === 'absent') throw new Error('unreachable: the client was just registered');
    return {
      clientId,
      ...(secret === undefined ? {} : { clientSecret: secret }),
      name: state.name,
      redirectUris: state.redirectUris,
      clientType: state.clientType,
      pkce: state.pkce,
      position,
    };
  }
}
