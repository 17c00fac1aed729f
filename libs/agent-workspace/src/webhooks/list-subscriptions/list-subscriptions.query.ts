import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { SubscriptionView } from '../workspace-webhooks.views.js';

export class ListSubscriptionsQuery extends Query<ListPage<SubscriptionView>> {
  constructor(
    readonly tenantId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
