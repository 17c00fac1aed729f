import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SecretBoxError } from '#kernel';
import { WebhookSecrets } from '../../engine/secrets.store.js';
import { deliveryHeaders } from '../../engine/signing.js';
import { WebhookReadModel } from '../../engine/webhook-read-model.js';
import { WebhookSender } from '../../sending/webhook-sender.js';
import { type DeliveryRequestView, GetDeliveryRequestQuery } from './get-delivery-request.query.js';

/**
 * What the latest attempt of an owner's delivery sent: the body (the stored envelope, serialised
 * as the dispatcher serialises it) and the headers, built by the same function the dispatcher
 * uses at the attempt's time. Another owner's webhook or delivery: 404, like an unknown one.
 */
@QueryHandler(GetDeliveryRequestQuery)
export class GetDeliveryRequestHandler implements IQueryHandler<GetDeliveryRequestQuery, DeliveryRequestView> {
  constructor(
    private readonly reads: WebhookReadModel,
    private readonly secrets: WebhookSecrets,
    private readonly sender: WebhookSender,
  ) {}

  async execute(query: GetDeliveryRequestQuery): Promise<DeliveryRequestView> {
    const webhook = await this.reads.webhook(query.channel, query.owner, query.webhookId);
    const delivery = await this.reads.delivery(query.channel, webhook.id, query.deliveryId);
    const payload = await this.reads.payload(query.channel, delivery.event_id);
    const body = payload ? Buffer.from(JSON.stringify(payload.envelope)) : null;
    const last = delivery.attempts.at(-1);
    if (!body || !last) return { body: body?.toString('utf8') ?? null, headers: null, attempt_number: null };
    let secret: string | null;
    try {
      secret = await this.secrets.get(webhook.secret_id);
    } catch (error) {
      if (!(error instanceof SecretBoxError)) throw error;
      secret = null;
    }
    if (secret === null) return { body: body.toString('utf8'), headers: null, attempt_number: last.number };
    const headers: Array<[string, string]> = [
      ...Object.entries(
        deliveryHeaders(
          secret,
          { id: delivery.id, eventType: delivery.event_type },
          Math.floor(Date.parse(last.started_at) / 1000),
          body,
        ),
      ),
      ['Content-Type', 'application/json'],
      ['Content-Length', String(body.length)],
      ['User-Agent', this.sender.userAgent],
    ];
    return { body: body.toString('utf8'), headers, attempt_number: last.number };
  }
}
