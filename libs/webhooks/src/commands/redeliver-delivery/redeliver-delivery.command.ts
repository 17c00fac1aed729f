import { Command } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';
import type { DeliveryDoc } from '../../engine/webhook-docs.js';

export class RedeliverDeliveryCommand extends Command<DeliveryDoc> {
  constructor(readonly input: { channel: string; owner: WebhookOwner; webhookId: string; deliveryId: string }) {
    super();
  }
}
