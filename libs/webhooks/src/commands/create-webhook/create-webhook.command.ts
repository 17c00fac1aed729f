import { Command } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';
import type { WebhookDoc } from '../../engine/webhook-docs.js';

/** Any channel: the platform's `/v1/webhooks`, later the workspace subscriptions. */
export class CreateWebhookCommand extends Command<WebhookDoc> {
  constructor(
    readonly input: {
      channel: string;
      owner: WebhookOwner;
      url: string;
      events: string[];
      secret: string;
    },
  ) {
    super();
  }
}
