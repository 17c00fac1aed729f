import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { EVENT_STORE, type EventStore, LiveEventWatch } from '#eventstore';
import { OAuthAccessTokenResolver } from './oauth-access-token.resolver.js';

const WATCHED = ['OAuthGrantRevoked', 'OAuthTokenRevoked', 'OAuthClientDeleted'];

/**
 * Every instance hears every OAuth revocation (ADR 0066), as ApiKeyRevocationWatch does for
 * keys: a subscription to the revocation events lets access tokens stay cached for a minute and
 * still stop everywhere within the store's poll interval. Runs only where HTTP is served.
 */
@Injectable()
export class OAuthRevocationWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OAuthRevocationWatch');
  private readonly watch: LiveEventWatch;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    tokens: OAuthAccessTokenResolver,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {
    this.watch = new LiveEventWatch({
      events,
      types: WATCHED,
      onEvent: (event) => {
        const data = event.data as { grant_id?: string; client_id?: string };
        if (event.type === 'OAuthClientDeleted') {
          if (data.client_id) tokens.clientDeleted(data.client_id);
        } else if (data.grant_id) tokens.grantRevoked(data.grant_id);
      },
      onWatching: (watching) => tokens.revocationWatch(watching),
      onFailure: (error) =>
        this.logger.warn(
          `revocation watch failed, tokens are cached briefly until it runs again: ${error instanceof Error ? error.message : String(error)}`,
        ),
    });
  }

  onApplicationBootstrap(): void {
    if (this.adapterHost?.httpAdapter) this.watch.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.watch.stop();
  }
}
