import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { isId } from '#kernel';
import { oauthClientDecider, type OAuthClientState } from './oauth-client.decider.js';
import { oauthClientStream } from './oauth-client.events.js';

export type ActiveOAuthClient = Extract<OAuthClientState, { status: 'active' | 'deleted' }> & { status: 'active' };

/**
 * A client as its stream says now (not the read model): a client the CLI has just registered
 * works at once, and a deleted or rotated one stops at once, on every instance.
 */
@Injectable()
export class OAuthClientLookup {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async active(clientId: string): Promise<ActiveOAuthClient | null> {
    if (!isId(clientId, 'oac')) return null;
    const { state } = await loadState(this.events, oauthClientStream(clientId), oauthClientDecider);
    return state.status === 'active' ? (state as ActiveOAuthClient) : null;
  }
}
