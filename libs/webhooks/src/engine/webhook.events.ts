import type { WebhookEnvelope, WebhookOwner } from './channel.js';

/** `webhook-{id}`: one stream per webhook (platform `wh_…`, workspace `sub_…`). */
export const webhookStream = (webhookId: string) => `webhook-${webhookId}`;

/**
 * Why a webhook stopped receiving: the fifth failed attempt of a delivery, a 410 Gone answer,
 * or its owner (`PATCH {active: false}`).
 */
export type DisableReason = 'delivery_failed' | 'gone' | 'manual';

/**
 * Events of a webhook (stable stored names). The secret is never in an event: events carry
 * `secret_id`, the key of the secret in the document store (WebhookSecrets), so the event log,
 * `svc events tail` and backups of it never reveal a signing secret.
 */
export type WebhookEvent =
  | {
      type: 'WebhookCreated';
      data: {
        webhook_id: string;
        channel: string;
        owner: WebhookOwner;
        url: string;
        events: string[];
        secret_id: string;
        created_at: string;
      };
    }
  | {
      type: 'WebhookUpdated';
      /** Only the fields that changed. */
      data: {
        webhook_id: string;
        channel: string;
        url?: string;
        events?: string[];
        secret_id?: string;
        updated_at: string;
      };
    }
  | {
      type: 'WebhookDisabled';
      data: {
        webhook_id: string;
        channel: string;
        reason: DisableReason;
        /** The delivery whose attempt disabled it (null: disabled by its owner). */
        delivery_id: string | null;
        status_code: number | null;
        disabled_at: string;
      };
    }
  | { type: 'WebhookReEnabled'; data: { webhook_id: string; channel: string; re_enabled_at: string } }
  | { type: 'WebhookDeleted'; data: { webhook_id: string; channel: string; deleted_at: string } }
  | {
      type: 'WebhookTestRequested';
      /** The test envelope itself: the fan-out makes its delivery like any other. */
      data: { webhook_id: string; channel: string; owner_id: string; event: WebhookEnvelope; requested_at: string };
    };

export type WebhookEventType = WebhookEvent['type'];

export const WEBHOOK_EVENT_TYPES: WebhookEventType[] = [
  'WebhookCreated',
  'WebhookUpdated',
  'WebhookDisabled',
  'WebhookReEnabled',
  'WebhookDeleted',
  'WebhookTestRequested',
];
