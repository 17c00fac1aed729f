import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type AllSubscription, EVENT_STORE, type EventStore } from '#eventstore';
import { OAuthAccessTokenResolver } from './oauth-access-token.resolver.js';

const RESTART_MS = 1000;
const WATCHED = ['OAuthGrantRevoked', 'OAuthTokenRevoked', 'OAuthClientDeleted'];

/**
 * Every instance hears every OAuth revocation (ADR 0066), as ApiKeyRevocationWatch does for
 * keys: a subscription to the revocation events lets access tokens stay cached for a minute and
 * still stop everywhere within the store's poll interval. Runs only where HTTP is served.
 */
@Injectable()
export class OAuthRevocationWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('OAuthRevocationWatch');
  private subscription: AllSubscription | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly tokens: OAuthAccessTokenResolver,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.adapterHost?.httpAdapter) return;
    this.running = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.subscription?.close();
    await this.running;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const subscription = this.events.subscribeToAll({
          after: await this.events.headPosition(),
          filter: { eventTypePrefixes: WATCHED },
        });
        this.subscription = subscription;
        this.tokens.revocationWatch(true);
        for await (const event of subscription) {
          const data = event.data as { grant_id?: string; client_id?: string };
          if (event.type === 'OAuthClientDeleted' && data.client_id) this.tokens.clientDeleted(data.client_id);
          else if (WATCHED.includes(event.type) && data.grant_id) this.tokens.grantRevoked(data.grant_id);
        }
      } catch (error) {
        this.logger.warn(
          `revocation watch failed, tokens are cached briefly until it runs again: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        this.tokens.revocationWatch(false);
        this.subscription = null;
      }
      if (!this.stopped)
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, RESTART_MS).unref();
        });
    }
  }
}
