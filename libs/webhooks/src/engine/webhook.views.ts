import type { DisableReason } from './webhook.events.js';
import type { DeliveryDoc, DeliveryStatus, WebhookDoc } from './webhook-docs.js';

/** A webhook as the API shows it. Never the secret. */
export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  created_at: string;
  updated_at: string;
  /** Why it stopped: `delivery_failed` (fifth failed attempt), `gone` (410), `manual`; null while active. */
  disabled_reason: DisableReason | null;
  disabled_at: string | null;
  /** Failed automatic attempts since the last success or re-enabling. */
  failure_count: number;
}

export interface AttemptViewOut {
  number: number;
  manual: boolean;
  attempted_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  outcome: 'succeeded' | 'failed';
}

export interface DeliveryView {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryStatus;
  created_at: string;
  attempts: AttemptViewOut[];
  /** When the next attempt is due (an automatic retry or an asked-for redelivery); null when none. */
  next_attempt_at: string | null;
  /** A redelivery was asked for and has not been made yet. */
  redelivery_pending: boolean;
}

export function toWebhookView(doc: WebhookDoc): WebhookView {
  return {
    id: doc.id,
    url: doc.url,
    events: doc.events,
    active: doc.status === 'active',
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    disabled_reason: doc.disabled_reason,
    disabled_at: doc.disabled_at,
    failure_count: doc.failure_count,
  };
}

/** The 201 of creation: exactly the fields the issue names. */
export function toCreatedWebhookView(
  doc: WebhookDoc,
): Pick<WebhookView, 'id' | 'url' | 'events' | 'active' | 'created_at'> {
  return { id: doc.id, url: doc.url, events: doc.events, active: doc.status === 'active', created_at: doc.created_at };
}

export function toDeliveryView(doc: DeliveryDoc): DeliveryView {
  return {
    id: doc.id,
    webhook_id: doc.webhook_id,
    event_id: doc.event_id,
    event_type: doc.event_type,
    state: doc.state,
    created_at: doc.created_at,
    attempts: doc.attempts.map((a) => ({
      number: a.number,
      manual: a.manual,
      attempted_at: a.started_at,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      response_body: a.response_body,
      outcome: a.succeeded ? 'succeeded' : 'failed',
    })),
    next_attempt_at: doc.dispatch_at,
    redelivery_pending: doc.manual_request_id !== null,
  };
}
