import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import { toWebhookView, type WebhookView } from '../../engine/webhook.views.js';
import { GetWebhookQuery } from './get-webhook.query.js';

@QueryHandler(GetWebhookQuery)
export class GetWebhookHandler implements IQueryHandler<GetWebhookQuery, WebhookView> {
  constructor(private readonly reads: WebhookReadModel) {}

  async execute(query: GetWebhookQuery): Promise<WebhookView> {
    return toWebhookView(await this.reads.webhook(query.channel, query.owner, query.webhookId));
  }
}
