import { createHmac, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type LoadedSecretBox, SECRET_BOX } from '#kernel';

/** How long a checkout link the service signed binds to its key (the 402's, a top-up's). */
export const SIGNED_CHECKOUT_LINK_TTL_SECONDS = 7 * 24 * 3600;

/** The query parameters that prove a checkout link's key_id was put there by this service. */
export interface CheckoutLinkBinding {
  key_id: string;
  /** Unix seconds after which the link no longer binds. */
  exp: string;
  /** base64url HMAC-SHA256 of `key_id.exp` under a key derived from the secrets key. */
  sig: string;
}

export function signCheckoutBinding(secret: Buffer, keyId: string, expSeconds: number): CheckoutLinkBinding {
  const exp = String(expSeconds);
  return { key_id: keyId, exp, sig: mac(secret, keyId, exp) };
}

export type BindingCheck = 'valid' | 'expired' | 'invalid';

/** Constant-time check of a binding; `nowSeconds` past `exp` is expired. */
export function checkCheckoutBinding(
  secret: Buffer,
  binding: { key_id: string; exp: string; sig: string },
  nowSeconds: number,
): BindingCheck {
  if (!/^\d{1,12}$/.test(binding.exp)) return 'invalid';
  const expected = Buffer.from(mac(secret, binding.key_id, binding.exp));
  const given = Buffer.from(binding.sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(binding.exp) < nowSeconds ? 'expired' : 'valid';
}

function mac(secret: Buffer, keyId: string, exp: string): string {
  return createHmac('sha256', secret).update(`${keyId}.${exp}`).digest('base64url');
}

/**
 * Signs and checks the key binding of checkout links (a bare key_id binds
 * too, and a signature, when present, still has to hold). The secret is derived from the
 * secrets key, so links signed before a key rotation are refused (the agent asks for a new one, or drops exp and sig).
 */
@Injectable()
export class CheckoutLinkSigner {
  private readonly secret: Buffer;

  constructor(
    @Inject(SECRET_BOX) secrets: LoadedSecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.secret = secrets.box.derive('checkout-link-binding-v1');
  }

  sign(keyId: string): CheckoutLinkBinding {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return signCheckoutBinding(this.secret, keyId, now + SIGNED_CHECKOUT_LINK_TTL_SECONDS);
  }

  check(binding: { key_id: string; exp: string; sig: string }): BindingCheck {
    return checkCheckoutBinding(this.secret, binding, Math.floor(this.clock.now().getTime() / 1000));
  }
}
