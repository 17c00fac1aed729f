import { Command } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';

export class DeleteWebhookCommand extends Command<void> {
  constructor(readonly input: { channel: string; owner: WebhookOwner; webhookId: string }) {
    super();
  }
}
