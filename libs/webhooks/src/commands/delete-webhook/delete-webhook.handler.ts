import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { WebhookSecrets } from '../../engine/secrets.store.js';
import { webhookDecider } from '../../engine/webhook.decider.js';
import { webhookStream } from '../../engine/webhook.events.js';
import { WebhookChannels } from '../../engine/webhook-channels.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import { DeleteWebhookCommand } from './delete-webhook.command.js';

/** WebhookDeleted: no more deliveries, pending retries and redeliveries cancelled, secrets removed. */
@CommandHandler(DeleteWebhookCommand)
export class DeleteWebhookHandler implements ICommandHandler<DeleteWebhookCommand, void> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly channels: WebhookChannels,
    private readonly secrets: WebhookSecrets,
    private readonly reads: WebhookReadModel,
  ) {}

  async execute({ input }: DeleteWebhookCommand): Promise<void> {
    const { channel } = this.channels.get(input.channel);
    const { position } = await decideAndAppend(this.events, webhookStream(input.webhookId), webhookDecider, {
      type: 'DeleteWebhook',
      owner: input.owner,
      now: this.clock.now(),
    });
    await this.reads.waitFor(channel.name, position);
    // After the event: a dispatcher that still held the webhook in cache finds no secret and skips.
    await this.secrets.removeAll(input.webhookId);
  }
}
