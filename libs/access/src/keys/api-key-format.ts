import * as crypto from 'node:crypto';
import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * API key format (DESIGN D2): `svc_{live|test}_` + 32 base62 random chars + 6 base62 chars of
 * the CRC32 of everything before them. The checksum lets a typo or a truncated key be rejected
 * before any lookup (and lets secret scanners recognise our keys). Only the SHA-256 of a key is
 * ever stored.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^svc_(live|test)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export type KeyEnvironment = 'live' | 'test';

function base62(value: number, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body) >>> 0, CHECKSUM_LENGTH);
}

/** Unbiased base62 string from a CSPRNG (rejection sampling: 62 does not divide 256). */
function randomBase62(length: number, random: (n: number) => Uint8Array): string {
  let out = '';
  while (out.length < length) {
    for (const byte of random(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(env: KeyEnvironment, random: (n: number) => Uint8Array = (n) => randomBytes(n)): string {
  const body = `svc_${env}_${randomBase62(RANDOM_LENGTH, random)}`;
  return body + checksum(body);
}

export type ParsedKey =
  | { ok: true; env: KeyEnvironment; hash: string; displayPrefix: string }
  | { ok: false; reason: 'malformed' | 'bad_checksum' };

/** Checks shape and checksum without any lookup. */
export function parseApiKey(value: string): ParsedKey {
  const m = KEY_PATTERN.exec(value);
  if (!m) return { ok: false, reason: 'malformed' };
  const body = value.slice(0, value.length - CHECKSUM_LENGTH);
  if (checksum(body) !== m[3]) return { ok: false, reason: 'bad_checksum' };
  return { ok: true, env: m[1] as KeyEnvironment, hash: hashApiKey(value), displayPrefix: displayPrefix(value) };
}

/** `crypto.hash` (Node ≥ 20.12): one call, about half the cost of createHash().update().digest(). */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** Hex SHA-256 of a key: what is stored and looked up. */
export function hashApiKey(value: string): string {
  return oneShotHash ? oneShotHash('sha256', value, 'hex') : createHash('sha256').update(value).digest('hex');
}

/** Short non-secret prefix shown in key lists (`svc_test_AbC4`): 4 of 32 random chars. */
export function displayPrefix(value: string): string {
  return value.slice(0, value.indexOf('_', 4) + 5);
}
