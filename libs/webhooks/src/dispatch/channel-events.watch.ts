import type { EventStore } from '#eventstore';
import type { WebhookChannel } from '../engine/channel.js';
import { DELIVERIES_RELEASED } from '../engine/delivery.events.js';

/** The stored event types that wake a channel's dispatcher. */
export function watchedEventTypes(channel: WebhookChannel): string[] {
  return [
    // Envelopes, test events and redelivery requests make deliveries due at once.
    ...channel.source.storedEventTypes,
    // Released holds are due again.
    ...(channel.releases?.releaseEventTypes ?? []),
    DELIVERIES_RELEASED,
    'WebhookTestRequested',
    'WebhookRedeliveryRequested',
    // Changes of a webhook (url, secret, disabled, deleted) must reach the next send.
    'WebhookUpdated',
    'WebhookDisabled',
    'WebhookReEnabled',
    'WebhookDeleted',
  ];
}

/** Whether an event changes a webhook document (so cached webhook documents are stale). */
export function changesWebhook(type: string): boolean {
  return (
    type.startsWith('Webhook') &&
    type !== 'WebhookTestRequested' &&
    type !== 'WebhookRedeliveryRequested' &&
    type !== DELIVERIES_RELEASED
  );
}

export interface WatchedEvent {
  position: number;
  webhookChanged: boolean;
}

/**
 * A filtered `$all` subscription to what wakes the dispatcher. When it ends (store gone), the
 * dispatcher's timer still looks every `pollMs`: the end is logged, not thrown.
 */
export class ChannelEventsWatch {
  private subscription: { close(): Promise<void> } | null = null;
  private closed = false;

  constructor(
    private readonly events: EventStore,
    private readonly channel: WebhookChannel,
    private readonly onEvent: (event: WatchedEvent) => void,
    private readonly onEnd: (error: unknown) => void,
  ) {}

  start(after: number): void {
    this.closed = false;
    const subscription = this.events.subscribeToAll({
      after,
      filter: { eventTypePrefixes: watchedEventTypes(this.channel) },
    });
    this.subscription = subscription;
    void (async () => {
      try {
        for await (const event of subscription)
          this.onEvent({ position: event.position, webhookChanged: changesWebhook(event.type) });
      } catch (error) {
        if (!this.closed) this.onEnd(error);
      }
    })();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.subscription?.close().catch(() => undefined);
  }
}
