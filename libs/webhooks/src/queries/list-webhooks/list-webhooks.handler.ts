import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { WebhookView } from '../../engine/webhook.views.js';
import { ListWebhooksQuery } from './list-webhooks.query.js';

@QueryHandler(ListWebhooksQuery)
export class ListWebhooksHandler implements IQueryHandler<ListWebhooksQuery, ListPage<WebhookView>> {
  constructor(private readonly reads: WebhookReadModel) {}

  execute(query: ListWebhooksQuery): Promise<ListPage<WebhookView>> {
    return this.reads.listWebhooks(query.channel, query.owner, query.limit, query.cursor);
  }
}
