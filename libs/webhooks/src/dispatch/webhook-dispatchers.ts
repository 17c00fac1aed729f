import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { BACKGROUND_WORK, BackgroundOwnership, type BackgroundWork } from '#projections';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner, ProjectionStore } from '#projections';
import { WebhookSecrets } from '../engine/secrets.store.js';
import { WebhookChannels } from '../engine/webhook-channels.js';
import { WebhookSender } from '../sending/webhook-sender.js';
import { DELIVERY_LEASES, type DeliveryLeases } from './leases.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';

/** The ownership lease's name of a channel's dispatcher. */
export function dispatcherJob(channel: string): string {
  return `webhooks:${channel}`;
}

/**
 * One dispatcher per registered channel. They run where the projections run (BACKGROUND_WORK:
 * the api when `config.runProjections`, the worker always, the CLI never), each only in the one
 * process holding its lease (`webhooks:{channel}`, ADR 0067), and stop before the stores close,
 * letting the sends in flight finish and be recorded.
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
    private readonly ownership: BackgroundOwnership,
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
        // Where dispatchers are owned, a send goes out only while this process holds the
        // channel's lease (checked right before it): a paused owner that lost it sends nothing.
        mayAct: () => !this.background.run || this.ownership.holds(dispatcherJob(channel)),
        ...(registered.hooks ? { hooks: registered.hooks } : {}),
        logger: new Logger(`Webhooks:${channel}`),
        settings: {
          concurrency: this.config.webhookConcurrency,
          perHost: this.config.webhookConcurrencyPerHost,
          perOwner: this.config.webhookConcurrencyPerAccount,
          retryScale: this.config.webhookRetryScale,
          leaseMs: this.config.webhookLeaseMs,
        },
      });
      this.dispatchers.set(channel, dispatcher);
    }
    return dispatcher;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.background.run) return;
    for (const { channel } of this.channels.all()) {
      const dispatcher = this.get(channel.name);
      this.ownership.add({
        name: dispatcherJob(channel.name),
        start: () => dispatcher.start(),
        stop: () => dispatcher.stop(),
      });
    }
    this.ownership.start();
    // One full round before the app is up: the channels free now run here from the start.
    await this.ownership.settle();
    const names = this.channels.all().map((c) => c.channel.name);
    if (names.length > 0)
      this.logger.log(`webhook dispatchers registered (each runs where its lease is held): ${names.join(', ')}`);
  }

  async beforeApplicationShutdown(): Promise<void> {
    // Stopping a dispatcher gives its lease back: a successor takes the channel over at once.
    if (this.background.run)
      await Promise.allSettled(
        this.channels.all().map(({ channel }) => this.ownership.remove(dispatcherJob(channel.name))),
      );
    await Promise.allSettled([...this.dispatchers.values()].map((d) => d.stop()));
    this.sender.close();
  }
}
