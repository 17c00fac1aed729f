import { randomBytes } from 'node:crypto';
import type { Clock } from '../clock/clock.port.js';

/** Crockford base32, as in ULID: ids sort by creation time as plain strings. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const ID_PREFIXES = [
  'key',
  'wh',
  'del',
  'evt',
  'repo',
  'agt',
  'run',
  'apr',
  'acct',
  'tn',
  'cmp',
  'deal',
  'fu',
  'sub',
  'req',
  'vuln',
  'scan',
  'att',
  'cs',
  'pi',
  'seti',
  'oac',
  'ses',
  'lead',
  'ana',
  'usr',
] as const;
export type IdPrefix = (typeof ID_PREFIXES)[number];

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/**
 * Prefixed, time-sortable ids (`acct_01J…`): a ULID after the prefix. Monotonic within one
 * generator: two ids made in the same millisecond still sort in creation order.
 */
export class IdGenerator {
  private lastTime = -1;
  private lastRandom: number[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly random: (n: number) => Uint8Array = (n) => randomBytes(n),
  ) {}

  ulid(): string {
    const time = this.clock.now().getTime();
    if (time <= this.lastTime && this.lastRandom.length === 16) {
      // Same (or earlier) millisecond: increment the random part to stay monotonic.
      let i = 15;
      while (i >= 0 && this.lastRandom[i] === 31) this.lastRandom[i--] = 0;
      if (i >= 0) this.lastRandom[i]! += 1;
    } else {
      const bytes = this.random(16);
      this.lastRandom = Array.from(bytes, (b) => b % 32);
      this.lastTime = time;
    }
    return encodeTime(Math.max(time, this.lastTime)) + this.lastRandom.map((d) => ALPHABET[d]).join('');
  }

  next(prefix: IdPrefix): string {
    return `${prefix}_${this.ulid()}`;
  }
}

export const ID_GENERATOR = Symbol('ID_GENERATOR');

const ID_PATTERN = /^([a-z]+)_([0-9A-HJKMNP-TV-Z]{26})$/;

export function isId(value: string, prefix?: IdPrefix): boolean {
  const m = ID_PATTERN.exec(value);
  return m !== null && (prefix === undefined || m[1] === prefix);
}
