import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { WebhookOwner } from '../../engine/channel.js';
import type { DeliveryView } from '../../engine/webhook.views.js';

export class ListDeliveriesQuery extends Query<ListPage<DeliveryView>> {
  constructor(
    readonly channel: string,
    readonly owner: WebhookOwner,
    /** null: every delivery of the owner's webhooks. */
    readonly webhookId: string | null,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
