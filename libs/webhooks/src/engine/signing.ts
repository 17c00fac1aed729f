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
