import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { WebhookOwner } from '../../engine/channel.js';
import type { WebhookView } from '../../engine/webhook.views.js';

export class ListWebhooksQuery extends Query<ListPage<WebhookView>> {
  constructor(
    readonly channel: string,
    readonly owner: WebhookOwner,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
