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
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyEvent } from './api-key.events.js';

/**
 * Tells this process's ApiKeyAuthenticator about every revocation as it is committed, by any
 * process: a subscription to `ApiKeyRevoked` events (embedded store: this process's commits at
 * once, other processes' within the store's poll interval, 50 ms). While it runs, looked-up keys
 * can stay cached for a minute instead of half a second (a thousand keys in use cost two
 * thousand read-model lookups a second otherwise), and a revoked key still stops working on
 * every instance within a second. When the subscription fails, the authenticator drops its
 * cache and goes back to the short lifetime until the watch runs again.
 *
 * Runs only in processes that serve HTTP (the CLI answers no requests).
 */
@Injectable()
export class ApiKeyRevocationWatch implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ApiKeyRevocationWatch');
  private readonly watch: LiveEventWatch;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    authenticator: ApiKeyAuthenticator,
    @Optional() private readonly adapterHost?: HttpAdapterHost,
  ) {
    this.watch = new LiveEventWatch({
      events,
      types: ['ApiKeyRevoked'],
      onEvent: (event) =>
        authenticator.revoked((event.data as Extract<ApiKeyEvent, { type: 'ApiKeyRevoked' }>['data']).key_id),
      onWatching: (watching) => authenticator.revocationWatch(watching),
      onFailure: (error) =>
        this.logger.warn(
          `revocation watch failed, keys are cached briefly until it runs again: ${error instanceof Error ? error.message : String(error)}`,
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
