import { Command } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';
import type { WebhookDoc } from '../../engine/webhook-docs.js';

export class UpdateWebhookCommand extends Command<WebhookDoc> {
  constructor(
    readonly input: {
      channel: string;
      owner: WebhookOwner;
      webhookId: string;
      url?: string;
      events?: string[];
      secret?: string;
      /** true re-enables (failure count reset); false disables. */
      active?: boolean;
    },
  ) {
    super();
  }
}
