import type { DeliveryDoc } from '../engine/webhook-docs.js';

/**
 * The key of one attempt of one delivery: its lease (ADR 0067, 0070) and the idempotency key of a
 * charge for it (DeliveryHooks). `{delivery}:a{rank}` for automatic attempt `rank`,
 * `{delivery}:m{request}` for the redelivery that answers `request`.
 */
export function automaticAttemptKey(deliveryId: string, rank: number): string {
  return `${deliveryId}:a${rank}`;
}

export function manualAttemptKey(deliveryId: string, requestId: string): string {
  return `${deliveryId}:m${requestId}`;
}

/** The attempt a delivery makes next: its asked-for redelivery first, else its next automatic one. */
export function nextAttemptKey(doc: DeliveryDoc): string {
  return doc.manual_request_id !== null
    ? manualAttemptKey(doc.id, doc.manual_request_id)
    : automaticAttemptKey(doc.id, doc.automatic_attempts + 1);
}

/** Whether the key names an attempt the delivery has not recorded yet (as its document reflects). */
export function isOpenAttempt(doc: DeliveryDoc, key: string): boolean {
  return (
    key === automaticAttemptKey(doc.id, doc.automatic_attempts + 1) ||
    (doc.manual_request_id !== null && key === manualAttemptKey(doc.id, doc.manual_request_id))
  );
}

/** What a key names; delivery ids hold no `:`. */
export function parseAttemptKey(
  key: string,
): { deliveryId: string; manual: false; rank: number } | { deliveryId: string; manual: true; requestId: string } {
  const at = key.indexOf(':');
  const deliveryId = key.slice(0, at);
  const rest = key.slice(at + 2);
  return key[at + 1] === 'm'
    ? { deliveryId, manual: true, requestId: rest }
    : { deliveryId, manual: false, rank: Number(rest) };
}
