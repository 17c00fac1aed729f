import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import type { DeliveryView } from '../../engine/webhook.views.js';
import { ListDeliveriesQuery } from './list-deliveries.query.js';

/** "Recent deliveries" (spec Events rule 6): the owner's webhook's deliveries, newest first. */
@QueryHandler(ListDeliveriesQuery)
export class ListDeliveriesHandler implements IQueryHandler<ListDeliveriesQuery, ListPage<DeliveryView>> {
  constructor(private readonly reads: WebhookReadModel) {}

  async execute(query: ListDeliveriesQuery): Promise<ListPage<DeliveryView>> {
    if (query.webhookId === null)
      return this.reads.listDeliveries(query.channel, { ownerId: query.owner.id }, query.limit, query.cursor);
    await this.reads.webhook(query.channel, query.owner, query.webhookId);
    return this.reads.listDeliveries(query.channel, query.webhookId, query.limit, query.cursor);
  }
}
