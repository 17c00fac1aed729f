// The read model's documents of one webhook channel (webhooksProjection writes them; the
// dispatcher, the queries and the audit read them).
import type { Doc } from '#documents';
import type { WebhookEnvelope } from './channel.js';
import type { DisableReason } from './webhook.events.js';

export interface WebhookDoc extends Doc {
  channel: string;
  owner_id: string;
  owner_kind: string;
  url: string;
  /** `protocol//host:port` of the url: the unit of per-host concurrency. */
  target: string;
  events: string[];
  secret_id: string;
  status: 'active' | 'disabled' | 'deleted';
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  disabled_reason: DisableReason | null;
  re_enabled_at: string | null;
  /** Failed automatic attempts since the last successful one or the last re-enabling. */
  failure_count: number;
  /**
   * A final failure was recorded while the webhook was active: the dispatcher must append
   * WebhookDisabled (it normally does at once; this survives a crash in between).
   */
  disable_requested_at: string | null;
  disable_request: {
    delivery_id: string;
    reason: 'delivery_failed' | 'gone';
    status_code: number | null;
    attempt_started_at: string;
  } | null;
  /** Deliveries of this webhook held because its owner could not pay (absent on old documents). */
  held_count?: number;
}

/** One per (active webhook, subscribed type): what the fan-out looks up. */
export interface SubscriptionDoc extends Doc {
  webhook_id: string;
  owner_id: string;
  event_type: string;
  target: string;
}

export interface AttemptView {
  number: number;
  automatic: number | null;
  manual: boolean;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
}

/** `held`: the owner could not pay for its next push; it waits for a release, out of the schedule. */
export const DELIVERY_STATUSES = ['pending', 'held', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryDoc extends Doc {
  webhook_id: string;
  owner_id: string;
  event_id: string;
  event_type: string;
  created_at: string;
  state: DeliveryStatus;
  /** The latest attempts (at most ATTEMPTS_KEPT); the event log has them all. */
  attempts: AttemptView[];
  attempt_count: number;
  automatic_attempts: number;
  /** Next automatic attempt while pending. */
  next_attempt_at: string | null;
  /** An outstanding redelivery request. */
  manual_request_id: string | null;
  manual_requested_at: string | null;
  /** When the dispatcher has something to do: the earlier of the two above; null when nothing. */
  dispatch_at: string | null;
  /** Revision of the delivery stream this document reflects (-1: no event yet). */
  revision: number;
  target: string;
  /** Set while held (a pending push or an asked-for redelivery waits for the owner to pay). */
  held_at?: string | null;
}

/** An alias of an owner (ReleaseSource), e.g. the account of a tenant. */
export interface OwnerAliasDoc extends Doc {
  owner_id: string;
}

export interface PayloadDoc extends Doc {
  envelope: WebhookEnvelope;
}

/** Attempts kept per delivery document (5 automatic ones and the latest redeliveries). */
export const ATTEMPTS_KEPT = 25;

export function targetOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
}

/** When the dispatcher has something to do with a delivery (its `dispatch_at`); null: nothing. */
export function dueAt(
  doc: Pick<DeliveryDoc, 'state' | 'next_attempt_at' | 'manual_requested_at' | 'held_at'>,
): string | null {
  if (doc.held_at) return null;
  const times: string[] = [];
  if (doc.state === 'pending' && doc.next_attempt_at) times.push(doc.next_attempt_at);
  if (doc.manual_requested_at) times.push(doc.manual_requested_at);
  if (times.length === 0) return null;
  return times.sort()[0]!;
}
