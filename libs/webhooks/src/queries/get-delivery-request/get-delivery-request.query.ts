import { Query } from '@nestjs/cqrs';
import type { WebhookOwner } from '../../engine/channel.js';

/** The request of a delivery's latest attempt as it was sent: headers and body (the dashboard's "Recent deliveries"). */
export interface DeliveryRequestView {
  /** The exact body bytes sent (and signed), as text; null when the event's payload is gone. */
  body: string | null;
  /**
   * The latest attempt's request headers, in the order sent; null before the first attempt or
   * when the secret cannot be read. The signatures are computed with the webhook's current
   * secret: after a secret change they differ from what older attempts carried.
   */
  headers: Array<[string, string]> | null;
  /** The attempt those headers belong to (its time is in webhook-timestamp). */
  attempt_number: number | null;
}

export class GetDeliveryRequestQuery extends Query<DeliveryRequestView> {
  constructor(
    readonly channel: string,
    readonly owner: WebhookOwner,
    readonly webhookId: string,
    readonly deliveryId: string,
  ) {
    super();
  }
}
