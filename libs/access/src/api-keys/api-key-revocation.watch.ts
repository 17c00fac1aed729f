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
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyEvent } from './api-key.events.js';

/** Pause before watching again after the subscription failed. */
const RESTART_MS = 1000;

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
  private subscription: AllSubscription | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly authenticator: ApiKeyAuthenticator,
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
          filter: { eventTypePrefixes: ['ApiKeyRevoked'] },
        });
        this.subscription = subscription;
        // Every revocation after this point reaches revoked() below.
        this.authenticator.revocationWatch(true);
        for await (const event of subscription) {
          if (event.type !== 'ApiKeyRevoked') continue;
          this.authenticator.revoked((event.data as Extract<ApiKeyEvent, { type: 'ApiKeyRevoked' }>['data']).key_id);
        }
      } catch (error) {
        this.logger.warn(
          `revocation watch failed, keys are cached briefly until it runs again: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        this.authenticator.revocationWatch(false);
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
