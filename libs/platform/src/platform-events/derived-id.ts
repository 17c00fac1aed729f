import { createHash } from 'node:crypto';
import type { IdPrefix } from '#kernel';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A prefixed id in the IdGenerator's format (`evt_` + a ULID) that is DERIVED, not drawn: the
 * time part is `at` (so it sorts with the other ids by time) and the other 16 characters are a
 * SHA-256 of `parts`. The same inputs give the same id on every replay, so a projection rebuilt
 * from position 0 reproduces identical ids (the webhook engine never resends history).
 */
export function derivedId(prefix: IdPrefix, at: string | number, ...parts: string[]): string {
  let ms = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(ms) || ms < 0) ms = 0;
  let time = '';
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[ms % 32] + time;
    ms = Math.floor(ms / 32);
  }
  const digest = createHash('sha256').update(parts.join('\n')).digest();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += ALPHABET[digest[i]! % 32];
  return `${prefix}_${time}${rest}`;
}
