import { z } from 'zod';
import { DELIVERY_STATUSES, MAX_SECRET_LENGTH, MAX_URL_LENGTH, MIN_SECRET_BYTES } from '#webhooks';
import { PLATFORM_EVENT_TYPES } from '../platform-events/platform-event.js';

const url = z
  .string()
  .trim()
  .min(1)
  .max(MAX_URL_LENGTH)
  .refine((v) => /^https?:\/\//i.test(v), { message: 'must be an http or https URL' })
  .describe(
    'Endpoint that receives deliveries: http or https (https on a live deployment), a public address unless SVC_WEBHOOK_ALLOW_PRIVATE.',
  );
const events = z
  .array(z.enum(PLATFORM_EVENT_TYPES))
  .min(1)
  .max(PLATFORM_EVENT_TYPES.length * 2)
  .describe('Event types to receive (exact names; duplicates are dropped).');
const secret = z
  .string()
  .max(MAX_SECRET_LENGTH)
  .refine((v) => Buffer.byteLength(v, 'utf8') >= MIN_SECRET_BYTES, {
    message: `must be at least ${MIN_SECRET_BYTES} bytes`,
  })
  .describe(
    `Shared secret that signs deliveries (X-Service-Signature), at least ${MIN_SECRET_BYTES} bytes. Never returned.`,
  );

export const createWebhookBody = z.object({ url, events, secret }).meta({ id: 'CreateWebhookRequest' });

export const updateWebhookBody = z
  .object({
    url: url.optional(),
    events: events.optional(),
    secret: secret.optional(),
    active: z
      .boolean()
      .optional()
      .describe('`true` re-enables a disabled webhook and resets its failure count; `false` disables it.'),
  })
  .meta({ id: 'UpdateWebhookRequest' });

export const webhookIdParams = z.object({ id: z.string().min(1).max(64).describe('Webhook id (`wh_…`).') });
export const deliveryIdParams = z.object({
  id: z.string().min(1).max(64).describe('Webhook id (`wh_…`).'),
  delivery_id: z.string().min(1).max(64).describe('Delivery id (`del_…`).'),
});

export const createdWebhookSchema = z
  .object({
    id: z.string().describe('`wh_…`'),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    created_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'CreatedWebhook' });

export const webhookSchema = z
  .object({
    id: z.string().describe('`wh_…`'),
    url: z.string(),
    events: z.array(z.string()),
    active: z
      .boolean()
      .describe('false once disabled (fifth failed attempt of a delivery, 410 Gone, or PATCH active=false).'),
    created_at: z.string(),
    updated_at: z.string(),
    disabled_reason: z.enum(['delivery_failed', 'gone', 'manual']).nullable(),
    disabled_at: z.string().nullable(),
    failure_count: z.number().int().describe('Failed automatic attempts since the last success or re-enabling.'),
  })
  .meta({ id: 'Webhook' });

export const deliveryAttemptSchema = z
  .object({
    number: z.number().int().describe('1 for the first attempt of the delivery, and so on.'),
    manual: z.boolean().describe('A redelivery asked for; never counts toward disabling.'),
    attempted_at: z.string(),
    duration_ms: z.number().int(),
    status_code: z.number().int().nullable().describe('HTTP status of the answer; null when none came.'),
    error: z
      .string()
      .nullable()
      .describe('`timeout: …`, `connection_refused`, `redirect_not_followed`, `blocked_address: …`, ...'),
    response_body: z.string().nullable().describe('First 2 KiB of the answer.'),
    outcome: z.enum(['succeeded', 'failed']),
  })
  .meta({ id: 'WebhookDeliveryAttempt' });

export const deliverySchema = z
  .object({
    id: z.string().describe('`del_…`; also sent as X-Service-Delivery.'),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    state: z
      .enum(DELIVERY_STATUSES)
      .describe('`held` only for channels whose owner pays per push (workspace subscriptions), never here.'),
    created_at: z.string(),
    attempts: z.array(deliveryAttemptSchema).describe('Oldest first (the latest 25).'),
    next_attempt_at: z
      .string()
      .nullable()
      .describe('When the next attempt is due (retry schedule 1 min, 5 min, 30 min, 2 h; or a redelivery asked for).'),
    redelivery_pending: z.boolean(),
  })
  .meta({ id: 'WebhookDelivery' });
