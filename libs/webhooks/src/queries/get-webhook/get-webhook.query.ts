import { Query } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';
import type { WebhookView } from '../../engine/webhook.views.js';

export class GetWebhookQuery extends Query<WebhookView> {
  constructor(
    readonly channel: string,
    readonly owner: WebhookOwner,
    readonly webhookId: string,
  ) {
    super();
  }
}
