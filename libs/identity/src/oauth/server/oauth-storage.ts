import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '#kernel';
import { type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';

/** oidc-provider's models whose ids are bearer secrets: stored under their SHA-256, never as is. */
const SECRET_IDS = new Set(['AccessToken', 'RefreshToken', 'AuthorizationCode']);
/** The models used once (a code, a rotated refresh token): `consume` marks them. */
const SINGLE_USE = new Set(['RefreshToken', 'AuthorizationCode']);
/**
 * Expired access tokens stay this long (so /v1 can tell an expired token from an unknown one),
 * then go. Every other entry goes at its own expiry: once expired it is never found anyway, and
 * interactions and sessions are what anonymous requests make.
 */
const KEEP_EXPIRED_MS = 24 * 3600_000;
const KEPT_AFTER_EXPIRY = new Set(['AccessToken']);
const PURGE_EVERY_MS = 10 * 60_000;

/** One stored oidc-provider entry (a code, a token, a grant, a session, an interaction). */
export interface OAuthEntryDoc extends Doc {
  payload: Record<string, unknown>;
  grant_id: string | null;
  client_id: string | null;
  uid: string | null;
  /**
   * When a code or refresh token was used (epoch seconds, oidc-provider's `consumed`), set once by
   * a conditional write (ADR 0076); null or missing before.
   */
  consumed_at?: number | null;
  /** Epoch milliseconds (the service clock). */
  expires_at: number;
  purge_at: number;
}

/** What a revocation reaches: the access tokens it stops, found by hash or grant. */
export interface OAuthRevocationListener {
  tokenDestroyed(hash: string): void;
  grantRevoked(grantId: string): void;
  clientDeleted(clientId: string): void;
}

/**
 * What the integration with oidc-provider hears from its storage (oauth-server), through the
 * adapter interface the provider documents rather than its error messages (ADR 0091).
 */
export interface OAuthStorageHooks {
  /**
   * A redemption lost the race for a code or refresh token to a concurrent one: what it answers
   * (the provider's answer to a reuse); `grantId` is the entry's grant, null when it is gone.
   */
  consumedAlready?: (model: string, grantId: string | null) => Promise<never>;
  /** A code or refresh token already used was found (the provider answers a reuse when presented). */
  consumedFound?: (model: string) => void;
}

export const oauthCollection = (model: string) => `oauth_${model.toLowerCase()}`;

export function tokenHash(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * oidc-provider's storage on the document store port (DESIGN §2: looked-up secrets with expiry),
 * so the scaled mode keeps it in MongoDB and every api instance sees the same codes, tokens,
 * grants and sessions. Expiry follows the service clock: an entry past its time is not found
 * (a fake clock in tests expires a code), and is purged then (an access token a day later).
 */
@Injectable()
export class OAuthStorage {
  private readonly listeners: OAuthRevocationListener[] = [];
  private readonly indexed = new Map<string, Promise<void>>();
  private lastPurge = 0;

  constructor(
    @Inject(DOCUMENT_STORE) private readonly documents: DocumentStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onRevocation(listener: OAuthRevocationListener): void {
    this.listeners.push(listener);
  }

  /** oidc-provider's Adapter for one model (its constructor takes the model's name). */
  adapterFor(model: string, hooks: OAuthStorageHooks = {}): OidcAdapter {
    return new DocumentStoreOidcAdapter(model, this, hooks);
  }

  now(): number {
    return this.clock.now().getTime();
  }

  storedId(model: string, id: string): string {
    return SECRET_IDS.has(model) ? tokenHash(id) : id;
  }

  async collection(model: string) {
    const name = oauthCollection(model);
    let ready = this.indexed.get(name);
    if (!ready) {
      ready = this.documents.ensureIndexes(name, [
        { fields: [['grant_id', 1]] },
        { fields: [['client_id', 1]] },
        { fields: [['uid', 1]] },
        { fields: [['purge_at', 1]] },
      ]);
      this.indexed.set(name, ready);
    }
    await ready;
    this.purge();
    return this.documents.collection<OAuthEntryDoc>(name);
  }

  /** A stored access token by its value's hash, expired or not (the /v1 check). */
  async accessToken(hash: string): Promise<OAuthEntryDoc | null> {
    return (await this.collection('AccessToken')).get(hash);
  }

  tokenDestroyed(model: string, hash: string): void {
    if (model === 'AccessToken') for (const l of this.listeners) l.tokenDestroyed(hash);
  }

  grantRevoked(grantId: string): void {
    for (const l of this.listeners) l.grantRevoked(grantId);
  }

  /** A deleted client: its codes, tokens, grants go; its access tokens stop at once. */
  async forgetClient(clientId: string): Promise<void> {
    for (const l of this.listeners) l.clientDeleted(clientId);
    for (const model of ['AccessToken', 'RefreshToken', 'AuthorizationCode', 'Grant'])
      await (await this.collection(model)).deleteMany({ client_id: clientId });
  }

  private purge(): void {
    const now = this.now();
    if (now - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now;
    void this.purgeExpired().catch(() => undefined);
  }

  /** Deletes the entries past their `purge_at` in the collections this process uses. */
  async purgeExpired(): Promise<void> {
    const now = this.now();
    await Promise.all(
      [...this.indexed.keys()].map((name) => this.documents.collection(name).deleteMany({ purge_at: { $lt: now } })),
    );
  }

  expiry(model: string, expiresInSeconds: number | undefined): { expires_at: number; purge_at: number } {
    // Entries without a lifetime (none in this configuration) are kept for a year.
    const expiresAt = this.now() + (expiresInSeconds ?? 365 * 86_400) * 1000;
    return { expires_at: expiresAt, purge_at: expiresAt + (KEPT_AFTER_EXPIRY.has(model) ? KEEP_EXPIRED_MS : 0) };
  }
}

/** oidc-provider's adapter interface (its documentation's `Adapter` class). */
export interface OidcAdapter {
  upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Record<string, unknown> | undefined>;
  findByUserCode(userCode: string): Promise<Record<string, unknown> | undefined>;
  findByUid(uid: string): Promise<Record<string, unknown> | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

class DocumentStoreOidcAdapter implements OidcAdapter {
  constructor(
    private readonly model: string,
    private readonly storage: OAuthStorage,
    private readonly hooks: OAuthStorageHooks,
  ) {}

  async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number): Promise<void> {
    const stored = { ...payload };
    // A token's jti is its value: kept out of the store, put back on reading.
    if (this.storage.storedId(this.model, id) !== id) delete stored.jti;
    await (
      await this.storage.collection(this.model)
    ).upsert({
      id: this.storage.storedId(this.model, id),
      payload: stored,
      consumed_at: typeof payload.consumed === 'number' ? payload.consumed : null,
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      client_id: typeof payload.clientId === 'string' ? payload.clientId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      ...this.storage.expiry(this.model, expiresIn),
    });
  }

  async find(id: string): Promise<Record<string, unknown> | undefined> {
    const doc = await (await this.storage.collection(this.model)).get(this.storage.storedId(this.model, id));
    const entry = this.live(doc, id);
    if (entry?.consumed !== undefined && entry.consumed !== null && SINGLE_USE.has(this.model))
      this.hooks.consumedFound?.(this.model);
    return entry;
  }

  async findByUid(uid: string): Promise<Record<string, unknown> | undefined> {
    const { items } = await (await this.storage.collection(this.model)).find({ uid }, { limit: 1 });
    return this.live(items[0] ?? null, undefined);
  }

  findByUserCode(): Promise<undefined> {
    // The device flow is not enabled.
    return Promise.resolve(undefined);
  }

  /**
   * Uses a code or refresh token once (ADR 0076): the write itself checks that nobody used it
   * first, so of two redemptions racing on two instances exactly one gets past here (a read and
   * then a write let both through on MongoDB, and on SQLite too: the provider checks `consumed`
   * on the entry it read before). An entry written before `consumed_at` existed carries the mark
   * in its payload only: checked too.
   */
  async consume(id: string): Promise<void> {
    const collection = await this.storage.collection(this.model);
    const storedId = this.storage.storedId(this.model, id);
    const used = Math.floor(this.storage.now() / 1000);
    if (await collection.updateIf(storedId, { consumed_at: null, 'payload.consumed': null }, { consumed_at: used }))
      return;
    await (this.hooks.consumedAlready ?? rejectConsumed)(
      this.model,
      (await collection.get(storedId))?.grant_id ?? null,
    );
  }

  async destroy(id: string): Promise<void> {
    const storedId = this.storage.storedId(this.model, id);
    this.storage.tokenDestroyed(this.model, storedId);
    await (await this.storage.collection(this.model)).delete(storedId);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    this.storage.grantRevoked(grantId);
    await (await this.storage.collection(this.model)).deleteMany({ grant_id: grantId });
  }

  private live(doc: OAuthEntryDoc | null, id: string | undefined): Record<string, unknown> | undefined {
    if (!doc || doc.expires_at <= this.storage.now()) return undefined;
    const payload = typeof doc.consumed_at === 'number' ? { ...doc.payload, consumed: doc.consumed_at } : doc.payload;
    return id !== undefined && doc.id !== id ? { ...payload, jti: id } : payload;
  }
}

function rejectConsumed(model: string): Promise<never> {
  return Promise.reject(new Error(`${model} already consumed`));
}
