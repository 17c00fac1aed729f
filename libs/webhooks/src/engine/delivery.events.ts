/** `webhookdelivery-{del_…}`: the attempts of one delivery (one event for one webhook, D12). */
export const deliveryStream = (deliveryId: string) => `webhookdelivery-${deliveryId}`;

/** Why a delivery will not be retried any more: its fifth automatic failure, or 410 Gone. */
export type FinalFailure = 'exhausted' | 'gone';

export interface DeliveryAttemptData {
  delivery_id: string;
  webhook_id: string;
  channel: string;
  event_id: string;
  event_type: string;
  /** Sequence of this attempt among all of the delivery's attempts, from 1. */
  number: number;
  /** Rank among the automatic attempts (1–5), null for a manual redelivery. */
  automatic: number | null;
  manual: boolean;
  /** The redelivery request a manual attempt answers. */
  request_id: string | null;
  started_at: string;
  /** Transport time, from just before connecting until the answer (or failure). */
  duration_ms: number;
  /** HTTP status, null when no answer came (timeout, refused, blocked address, ...). */
  status_code: number | null;
  /** Why it failed short of a 2xx (`timeout: …`, `redirect_not_followed`, ...); null on success and plain non-2xx. */
  error: string | null;
  /** First 1 KiB of the response body (UTF-8), null when there was none. */
  response_body: string | null;
  succeeded: boolean;
  /** When the next automatic attempt is due (failures 1–4 of the schedule), else null. */
  next_attempt_at: string | null;
  /** Set when this failure ends the delivery and disables the webhook. */
  final: FinalFailure | null;
}

export type DeliveryEvent =
  | { type: 'WebhookDeliveryAttempted'; data: DeliveryAttemptData }
  | {
      type: 'WebhookRedeliveryRequested';
      data: {
        delivery_id: string;
        webhook_id: string;
        channel: string;
        event_id: string;
        event_type: string;
        request_id: string;
        requested_at: string;
      };
    };

export type DeliveryEventType = DeliveryEvent['type'];
export const DELIVERY_EVENT_TYPES: DeliveryEventType[] = ['WebhookDeliveryAttempted', 'WebhookRedeliveryRequested'];
