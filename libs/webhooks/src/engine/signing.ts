import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header names of a delivery (D13). */
export const SIGNATURE_HEADER = 'X-Service-Signature';
export const EVENT_HEADER = 'X-Service-Event';
export const DELIVERY_HEADER = 'X-Service-Delivery';

/** `sha256=` + lowercase hex HMAC-SHA256 of exactly these bytes with the webhook secret. */
export function signWebhookBody(secret: string, body: Uint8Array): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * What a receiver does (spec "Webhook signatures"): recompute over the raw body as received and
 * compare in constant time. Exported for receivers written in TypeScript and for the tests.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: Uint8Array,
  header: string | undefined | null,
): boolean {
  if (typeof header !== 'string') return false;
  const expected = Buffer.from(signWebhookBody(secret, rawBody));
  const given = Buffer.from(header.trim());
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Standard Webhooks headers (https://www.standardwebhooks.com/, ADR 0059), sent beside ours so a
 * receiver may verify a delivery with any Standard Webhooks library.
 */
export const STANDARD_ID_HEADER = 'webhook-id';
export const STANDARD_TIMESTAMP_HEADER = 'webhook-timestamp';
export const STANDARD_SIGNATURE_HEADER = 'webhook-signature';

/**
 * The Standard Webhooks headers of one attempt: `webhook-id` is the delivery id (as
 * X-Service-Delivery), `webhook-timestamp` the attempt's unix seconds, and `webhook-signature`
 * `v1,` + base64 HMAC-SHA256 of `${id}.${timestamp}.` followed by exactly these body bytes, keyed
 * with the UTF-8 bytes of the webhook secret (the key of X-Service-Signature).
 *
 * Standard Webhooks libraries base64-decode the secret they are given (optionally prefixed
 * `whsec_`), and ours are arbitrary strings, so a receiver passes the secret base64-encoded:
 * `new Webhook(Buffer.from(secret, 'utf8').toString('base64'))`.
 */
export function standardWebhookHeaders(
  secret: string,
  deliveryId: string,
  timestampSeconds: number,
  body: Uint8Array,
): Record<string, string> {
  if (!Number.isSafeInteger(timestampSeconds)) throw new RangeError('webhook-timestamp must be whole seconds');
  const timestamp = String(timestampSeconds);
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${deliveryId}.${timestamp}.`, 'utf8')
    .update(body)
    .digest('base64');
  return {
    [STANDARD_ID_HEADER]: deliveryId,
    [STANDARD_TIMESTAMP_HEADER]: timestamp,
    [STANDARD_SIGNATURE_HEADER]: `v1,${signature}`,
  };
}

/**
 * The headers of one attempt of a delivery besides Content-Type, Content-Length and User-Agent
 * (the sender's): the signature, event and delivery headers (D13) and the Standard Webhooks ones.
 * The dispatcher sends them; the dashboard shows them ("Recent deliveries"), built the same way.
 */
export function deliveryHeaders(
  secret: string,
  delivery: { id: string; eventType: string },
  timestampSeconds: number,
  body: Uint8Array,
): Record<string, string> {
  return {
    [SIGNATURE_HEADER]: signWebhookBody(secret, body),
    [EVENT_HEADER]: delivery.eventType,
    [DELIVERY_HEADER]: delivery.id,
    // The same delivery signed the Standard Webhooks way too (ADR 0059), at this attempt's time.
    ...standardWebhookHeaders(secret, delivery.id, timestampSeconds, body),
  };
}
