import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import type { WebhookEnvelope } from '../../engine/channel.js';
import { deliveryIdFor } from '../../engine/delivery-id.js';
import { webhookDecider } from '../../engine/webhook.decider.js';
import { webhookStream } from '../../engine/webhook.events.js';
import { WebhookChannels } from '../../engine/webhook-channels.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { DeliveryDoc } from '../../engine/webhook-docs.js';
import { SendTestEventCommand } from './send-test-event.command.js';

/**
 * D13: a `webhook.test` envelope for this webhook whatever it subscribes to, appended as
 * WebhookTestRequested; the fan-out makes its delivery (same id rule, signing, schedule and
 * records as any other) and the dispatcher sends it at once.
 */
@CommandHandler(SendTestEventCommand)
export class SendTestEventHandler implements ICommandHandler<SendTestEventCommand, DeliveryDoc> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly channels: WebhookChannels,
    private readonly reads: WebhookReadModel,
  ) {}

  async execute({ input }: SendTestEventCommand): Promise<DeliveryDoc> {
    const { channel } = this.channels.get(input.channel);
    const now = this.clock.now();
    const envelope: WebhookEnvelope = {
      id: this.ids.next('evt'),
      type: channel.testEventType,
      created: now.toISOString(),
      data: { webhook_id: input.webhookId, message: 'A test event: your endpoint receives and verifies deliveries.' },
    };
    const { position } = await decideAndAppend(this.events, webhookStream(input.webhookId), webhookDecider, {
      type: 'RequestTestEvent',
      owner: input.owner,
      event: envelope,
      now,
    });
    await this.reads.waitFor(channel.name, position);
    return this.reads.delivery(
      channel.name,
      input.webhookId,
      deliveryIdFor(input.webhookId, envelope.id, envelope.created),
    );
  }
}
