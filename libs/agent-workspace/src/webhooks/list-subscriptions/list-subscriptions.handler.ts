import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { WebhookReadModel } from '#webhooks';
import { WORKSPACE_CHANNEL } from '../workspace.channel.js';
import { type SubscriptionView, subscriptionView } from '../workspace-webhooks.views.js';
import { ListSubscriptionsQuery } from './list-subscriptions.query.js';

/** The tenant's subscriptions, newest first, each with its held deliveries. */
@QueryHandler(ListSubscriptionsQuery)
export class ListSubscriptionsHandler implements IQueryHandler<ListSubscriptionsQuery, ListPage<SubscriptionView>> {
  constructor(private readonly reads: WebhookReadModel) {}

  execute(query: ListSubscriptionsQuery): Promise<ListPage<SubscriptionView>> {
    return this.reads.listWebhooks(
      WORKSPACE_CHANNEL,
      { kind: 'tenant', id: query.tenantId },
      query.limit,
      query.cursor,
      subscriptionView,
    );
  }
}
