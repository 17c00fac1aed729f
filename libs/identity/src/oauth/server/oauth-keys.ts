import { createECDH } from 'node:crypto';
import type { SecretBox } from '#kernel';

/** P-256's order: a derived private scalar must be below it (fails with odds of about 2^-32). */
const P256_ORDER = BigInt('0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551');

/**
 * oidc-provider's keys, derived from the service's secrets key (SVC_SECRETS_KEY or
 * SVC_DATA_DIR/secrets.key) rather than stored: every api process with the same key computes the
 * same ones, and a restart changes nothing. Cookie signing keys (HMAC) and one ES256 signing key
 * (the provider needs one; opaque access tokens and no ID tokens mean nothing is signed with it
 * today). Rotating SVC_SECRETS_KEY rotates them: open interactions and provider sessions end.
 */
export function oauthKeys(box: SecretBox): { cookieKeys: string[]; jwks: { keys: Record<string, string>[] } } {
  const cookieKeys = [box.derive('oauth-cookie-keys-v1').toString('base64url')];
  let d: Buffer | undefined;
  for (let i = 0; !d; i++) {
    const candidate = box.derive(`oauth-signing-key-v1-${i}`);
    const n = BigInt(`0x${candidate.toString('hex')}`);
    if (n > 0n && n < P256_ORDER) d = candidate;
  }
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(d);
  const pub = ecdh.getPublicKey(); // 0x04 || X || Y
  const jwk = {
    kty: 'EC',
    crv: 'P-256',
    alg: 'ES256',
    use: 'sig',
    x: pub.subarray(1, 33).toString('base64url'),
    y: pub.subarray(33, 65).toString('base64url'),
    d: d.toString('base64url'),
  };
  return { cookieKeys, jwks: { keys: [jwk] } };
}
