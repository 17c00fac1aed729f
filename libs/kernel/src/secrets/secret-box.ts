import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** Prefix of a sealed value (format version 1). */
const PREFIX = 'sb1.';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Why a sealed value could not be opened (wrong key, another record's value, or tampering). */
export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

/** A 32-byte key from its text form: 64 hex digits, or base64 / base64url (43–44 characters). */
export function parseSecretKey(text: string): Buffer {
  const value = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(value)
    ? Buffer.from(value, 'hex')
    : /^[A-Za-z0-9+/_-]{43}={0,1}$/.test(value)
      ? Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64')
      : null;
  if (!bytes || bytes.length !== KEY_BYTES)
    throw new SecretBoxError('expected a 32-byte key: 64 hex digits or 43–44 base64 characters');
  return bytes;
}

/** A fresh key in the text form `parseSecretKey` reads (base64url). */
export function generateSecretKey(): string {
  return randomBytes(KEY_BYTES).toString('base64url');
}

/** The public id of a key: the first 8 hex digits of its SHA-256 (names the key, reveals nothing). */
export function secretKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/**
 * Encryption at rest of secrets the service must read back (webhook signing secrets):
 * AES-256-GCM, a random 96-bit nonce per value, sealed as `sb1.{key id}.{nonce}.{ciphertext and
 * tag}` (base64url). The caller's `context` (the record's id) is authenticated with it, so a
 * sealed value copied into another record does not open. New values are sealed with the current
 * key; the previous keys open what they sealed, so a key can be rotated without re-sealing
 * everything at once (`isCurrent` tells which values still need moving).
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly currentKeyId: string;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new SecretBoxError(`expected ${KEY_BYTES}-byte keys`);
    }
    this.currentKeyId = secretKeyId(current);
    this.keys.set(this.currentKeyId, current);
    for (const key of previous) if (!this.keys.has(secretKeyId(key))) this.keys.set(secretKeyId(key), key);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.currentKeyId)!, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const sealed = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${this.currentKeyId}.${iv.toString('base64url')}.${sealed.toString('base64url')}`;
  }

  /** The plaintext of a sealed value; throws SecretBoxError when it cannot be opened. */
  open(value: string, context: string): string {
    const parts = value.split('.');
    if (parts.length !== 4 || `${parts[0]}.` !== PREFIX) throw new SecretBoxError('not a sealed value');
    const [, keyId, ivText, sealedText] = parts as [string, string, string, string];
    const key = this.keys.get(keyId);
    if (!key) throw new SecretBoxError(`sealed with key ${keyId}, which this process does not have`);
    const iv = Buffer.from(ivText, 'base64url');
    const sealed = Buffer.from(sealedText, 'base64url');
    if (iv.length !== IV_BYTES || sealed.length < TAG_BYTES) throw new SecretBoxError('malformed sealed value');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]).toString(
        'utf8',
      );
    } catch {
      throw new SecretBoxError(
        `sealed value does not authenticate with key ${keyId} (changed, or belongs to another record)`,
      );
    }
  }

  /**
   * A 32-byte key for another purpose, derived from the current key (HKDF-SHA256): a server
   * secret to mix into keys that must not be computable from client input alone.
   */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.keys.get(this.currentKeyId)!, Buffer.alloc(0), purpose, KEY_BYTES));
  }

  /** Whether `sealed` was sealed with the current key (else `open` + `seal` moves it there). */
  isCurrent(sealed: string): boolean {
    return sealed.startsWith(`${PREFIX}${this.currentKeyId}.`);
  }
}
