import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { deliveryDecider } from '../../engine/delivery.decider.js';
import { deliveryStream } from '../../engine/delivery.events.js';
import { WebhookChannels } from '../../engine/webhook-channels.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { DeliveryDoc } from '../../engine/webhook-docs.js';
import { RedeliverDeliveryCommand } from './redeliver-delivery.command.js';

/**
 * Appends WebhookRedeliveryRequested; the dispatcher makes one manual attempt at once (also to a
 * disabled webhook: the owner asked for it). A manual attempt never counts toward disabling; if
 * it succeeds the delivery is succeeded. Asking again while one waits changes nothing.
 */
@CommandHandler(RedeliverDeliveryCommand)
export class RedeliverDeliveryHandler implements ICommandHandler<RedeliverDeliveryCommand, DeliveryDoc> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly channels: WebhookChannels,
    private readonly reads: WebhookReadModel,
  ) {}

  async execute({ input }: RedeliverDeliveryCommand): Promise<DeliveryDoc> {
    const { channel } = this.channels.get(input.channel);
    await this.reads.webhook(channel.name, input.owner, input.webhookId);
    const delivery = await this.reads.delivery(channel.name, input.webhookId, input.deliveryId);
    const { position } = await decideAndAppend(this.events, deliveryStream(delivery.id), deliveryDecider, {
      type: 'RequestRedelivery',
      delivery: {
        deliveryId: delivery.id,
        webhookId: delivery.webhook_id,
        channel: channel.name,
        eventId: delivery.event_id,
        eventType: delivery.event_type,
      },
      requestId: this.ids.next('req'),
      now: this.clock.now(),
    });
    await this.reads.waitFor(channel.name, position);
    return this.reads.delivery(channel.name, input.webhookId, input.deliveryId);
  }
}
