import { createHash } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The id of the delivery of one event to one webhook: `del_` + a ULID whose time part is the
 * event's creation time and whose "random" part is a hash of (webhook id, event id). Derived, not
 * drawn, so the fan-out projection makes the same id on every replay (a rebuild reproduces each
 * delivery with its recorded attempts instead of creating a new one to send), and ids still sort
 * by event time like every other id.
 */
export function deliveryIdFor(webhookId: string, eventId: string, eventCreated: string): string {
  let ms = Date.parse(eventCreated);
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[ms % 32] + time;
    ms = Math.floor(ms / 32);
  }
  const digest = createHash('sha256').update(`${webhookId}\n${eventId}`).digest();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += ALPHABET[digest[i]! % 32];
  return `del_${time}${rest}`;
}

/** The time part of a delivery id: its event's creation, in ms (null for an id not made by deliveryIdFor). */
export function deliveryIdTime(deliveryId: string): number | null {
  const time = /^del_([0-9A-HJKMNP-TV-Z]{10})/.exec(deliveryId)?.[1];
  if (!time) return null;
  let ms = 0;
  for (const c of time) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}
