import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { type Clock, CLOCK, type IdGenerator, ID_GENERATOR } from '#kernel';
import { type Doc, DOCUMENT_STORE, type DocumentStore, ConcurrentModificationError } from '#documents';

/**
 * A paid checkout that named no key (GET /agents/checkout-link without key_id) opens its
 * account at fulfilment; its first key is shown ONCE on the success page of that checkout.
 * The claim keeps the ids (so repeated deliveries open one account) and, until shown, the key
 * value encrypted with a key derived from the checkout session id (which only the buyer's
 * success redirect carries); it is erased when shown.
 */
export const CHECKOUT_CLAIMS_COLLECTION = 'checkout_claims';

export interface CheckoutClaimDoc extends Doc {
  account_id: string;
  key_id: string;
  /** AES-256-GCM of the key value (base64 iv|tag|data), null before it exists and once shown. */
  key_ciphertext: string | null;
  shown_at: string | null;
  created_at: string;
}

@Injectable()
export class CheckoutClaims {
  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private get claims() {
    return this.documents.collection<CheckoutClaimDoc>(CHECKOUT_CLAIMS_COLLECTION);
  }

  /** The claim of a session: created with fresh ids the first time, the same ids after. */
  async claim(sessionId: string): Promise<CheckoutClaimDoc> {
    const fresh: CheckoutClaimDoc = {
      id: sessionId,
      account_id: this.ids.next('acct'),
      key_id: this.ids.next('key'),
      key_ciphertext: null,
      shown_at: null,
      created_at: this.clock.now().toISOString(),
    };
    if (await this.claims.insertIfAbsent(fresh)) return fresh;
    return (await this.claims.get(sessionId))!;
  }

  async get(sessionId: string): Promise<CheckoutClaimDoc | null> {
    return this.claims.get(sessionId);
  }

  async storeKey(sessionId: string, keyValue: string): Promise<void> {
    const claim = await this.claims.get(sessionId);
    if (!claim || claim.key_ciphertext !== null || claim.shown_at !== null) return;
    const doc: CheckoutClaimDoc = { ...claim, key_ciphertext: encrypt(keyValue, sessionId) };
    try {
      await this.documents.applyBatch([
        { kind: 'cas', collection: CHECKOUT_CLAIMS_COLLECTION, doc, expect: { key_ciphertext: null, shown_at: null } },
      ]);
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
    }
  }

  /** The key value, once: the claim forgets it as it is shown. Null when shown already (or lost). */
  async reveal(sessionId: string): Promise<{ claim: CheckoutClaimDoc; key: string | null } | null> {
    const claim = await this.claims.get(sessionId);
    if (!claim) return null;
    if (!claim.key_ciphertext) return { claim, key: null };
    const shown: CheckoutClaimDoc = { ...claim, key_ciphertext: null, shown_at: this.clock.now().toISOString() };
    try {
      await this.documents.applyBatch([
        {
          kind: 'cas',
          collection: CHECKOUT_CLAIMS_COLLECTION,
          doc: shown,
          expect: { key_ciphertext: claim.key_ciphertext },
        },
      ]);
    } catch (error) {
      if (error instanceof ConcurrentModificationError) return { claim, key: null }; // shown to a concurrent request
      throw error;
    }
    return { claim: shown, key: decrypt(claim.key_ciphertext, sessionId) };
  }
}

function cipherKey(sessionId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, 'svc-checkout-claim-v1', 'key', 32));
}

function encrypt(value: string, sessionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', cipherKey(sessionId), iv);
  const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64');
}

function decrypt(stored: string, sessionId: string): string {
  const raw = Buffer.from(stored, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', cipherKey(sessionId), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}
