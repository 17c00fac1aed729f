import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { BACKGROUND_WORK, type BackgroundWork } from '#projections';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner, ProjectionStore } from '#projections';
import { WebhookSecrets } from '../engine/secrets.store.js';
import { WebhookChannels } from '../engine/webhook-channels.js';
import { WebhookSender } from '../sending/webhook-sender.js';
import { DELIVERY_LEASES, type DeliveryLeases } from './leases.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

/**
 * One dispatcher per registered channel. They run where the projections run (BACKGROUND_WORK:
 * the api when `config.runProjections`, the worker always, the CLI never) and stop before the
 * stores close, letting the sends in flight finish and be recorded.
 */
@Injectable()
export class WebhookDispatchers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly dispatchers = new Map<string, WebhookDispatcher>();

  constructor(
    private readonly channels: WebhookChannels,
    @Inject(BACKGROUND_WORK) private readonly background: BackgroundWork,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly projections: ProjectionStore,
    private readonly runner: ProjectionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    @Inject(DELIVERY_LEASES) private readonly leases: DeliveryLeases,
  ) {}

  /** The dispatcher of a channel (created on first use; running only where background work runs). */
  get(channel: string): WebhookDispatcher {
    let dispatcher = this.dispatchers.get(channel);
    if (!dispatcher) {
      const registered = this.channels.get(channel);
      dispatcher = new WebhookDispatcher(registered.channel, {
        events: this.events,
        projections: this.projections,
        runner: this.runner,
        clock: this.clock,
        sender: this.sender,
        secrets: this.secrets,
        leases: this.leases,
        ...(registered.hooks ? { hooks: registered.hooks } : {}),
        logger: new Logger(`Webhooks:${channel}`),
        settings: {
          concurrency: this.config.webhookConcurrency,
          perHost: this.config.webhookConcurrencyPerHost,
          perOwner: this.config.webhookConcurrencyPerAccount,
          retryScale: this.config.webhookRetryScale,
        },
      });
      this.dispatchers.set(channel, dispatcher);
    }
    return dispatcher;
  }

  onApplicationBootstrap(): void {
    if (!this.background.run) return;
    for (const { channel } of this.channels.all()) this.get(channel.name).start();
    const names = this.channels.all().map((c) => c.channel.name);
    if (names.length > 0) this.logger.log(`webhook dispatchers running: ${names.join(', ')}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.dispatchers.values()].map((d) => d.stop()));
    this.sender.close();
  }
}
