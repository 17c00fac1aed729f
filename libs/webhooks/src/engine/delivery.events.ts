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
  /** First 2 KiB of the response body (UTF-8; 1 KiB before ADR 0069), null when there was none. */
  response_body: string | null;
  succeeded: boolean;
  /** When the next automatic attempt is due (failures 1–4 of the schedule), else null. */
  next_attempt_at: string | null;
  /** Set when this failure ends the delivery and disables the webhook. */
  final: FinalFailure | null;
}

/**
 * The owner could not pay for this push (a channel's hook said so before sending): the delivery
 * waits, out of the retry schedule, until the owner's holds are released. Not an attempt.
 */
export interface DeliveryHeldData {
  delivery_id: string;
  webhook_id: string;
  channel: string;
  event_id: string;
  event_type: string;
  owner_id: string;
  /** Why, as the hook put it (`insufficient_credits`). */
  reason: string;
  /** The held push was an asked-for redelivery. */
  manual: boolean;
  request_id: string | null;
  held_at: string;
}

export type DeliveryEvent =
  | { type: 'WebhookDeliveryAttempted'; data: DeliveryAttemptData }
  | { type: 'WebhookDeliveryHeld'; data: DeliveryHeldData }
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
export const DELIVERY_EVENT_TYPES: DeliveryEventType[] = [
  'WebhookDeliveryAttempted',
  'WebhookDeliveryHeld',
  'WebhookRedeliveryRequested',
];

/** `webhookrelease-{channel}-{owner}`: releases of an owner's held deliveries. */
export const deliveryReleaseStream = (channel: string, ownerId: string) => `webhookrelease-${channel}-${ownerId}`;

/**
 * Every held delivery of this owner becomes due again (appended when the owner can pay again
 * and the channel's own release events may have passed the hold: see AttemptRunner).
 */
export interface DeliveriesReleasedEvent {
  type: 'WebhookDeliveriesReleased';
  data: { channel: string; owner_id: string; reason: string; released_at: string };
}
export const DELIVERIES_RELEASED = 'WebhookDeliveriesReleased';
