import { Inject, Injectable } from '@nestjs/common';
import { type BearerTokenResolver, type OAuthTokenPrincipal, unauthorized } from '#access';
import { BoundedCache, CLOCK, type Clock } from '#kernel';
import { type OAuthEntryDoc, type OAuthRevocationListener, OAuthStorage, tokenHash } from '../server/oauth-storage.js';

/** oidc-provider's opaque tokens: 256 random bits as 43 base64url characters. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** How long a looked-up token is trusted without the revocation watch (other instances' revocations). */
export const TOKEN_CACHE_TTL_MS = 500;
/** While OAuthRevocationWatch runs: every revocation then arrives as an event. */
export const TOKEN_CACHE_WATCHED_TTL_MS = 60_000;
const TOKEN_CACHE_MAX = 50_000;

interface CachedToken {
  hash: string;
  grantId: string;
  clientId: string;
  /** Epoch ms, on the service clock. */
  expiresAt: number;
  principal: OAuthTokenPrincipal;
}

/**
 * OAuth access tokens on /v1 (ADR 0066): looked up by the SHA-256 of the value in the document
 * store (oidc-provider's AccessToken entries), then cached per process like API keys, so a
 * request with a token costs what one with a key does. Revocation in this process drops the
 * entries at once (OAuthStorage tells it); revocations elsewhere arrive through
 * OAuthRevocationWatch. Unknown or revoked → INVALID_TOKEN, past its lifetime → EXPIRED_TOKEN.
 */
@Injectable()
export class OAuthAccessTokenResolver implements BearerTokenResolver, OAuthRevocationListener {
  readonly name = 'oauth_access_token';
  private readonly cache = new BoundedCache<string, CachedToken>({ maxEntries: TOKEN_CACHE_MAX });
  private ttlMs = TOKEN_CACHE_TTL_MS;

  constructor(
    private readonly storage: OAuthStorage,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    storage.onRevocation(this);
  }

  resolve(token: string): OAuthTokenPrincipal | undefined | Promise<OAuthTokenPrincipal> {
    const cached = this.cache.get(token);
    if (cached) return this.check(cached);
    if (!TOKEN_PATTERN.test(token)) return undefined;
    return this.lookup(token);
  }

  private check(entry: CachedToken): OAuthTokenPrincipal {
    if (entry.expiresAt <= this.clock.now().getTime())
      throw unauthorized('EXPIRED_TOKEN', 'The access token has expired; get a new one with the refresh token.');
    return entry.principal;
  }

  private async lookup(token: string): Promise<OAuthTokenPrincipal> {
    const hash = tokenHash(token);
    const doc = await this.storage.accessToken(hash);
    const entry = doc && toEntry(hash, doc);
    if (!entry) throw unauthorized('INVALID_TOKEN', 'The access token is not valid or has been revoked.');
    const principal = this.check(entry);
    this.cache.set(token, entry, Math.min(this.ttlMs, Math.max(0, entry.expiresAt - this.clock.now().getTime())));
    return principal;
  }

  tokenDestroyed(hash: string): void {
    this.cache.deleteWhere((e) => e.hash === hash);
  }

  grantRevoked(grantId: string): void {
    this.cache.deleteWhere((e) => e.grantId === grantId);
  }

  clientDeleted(clientId: string): void {
    this.cache.deleteWhere((e) => e.clientId === clientId);
  }

  /** Whether OAuthRevocationWatch reports every revocation; off: the cache is dropped. */
  revocationWatch(live: boolean): void {
    this.ttlMs = live ? TOKEN_CACHE_WATCHED_TTL_MS : TOKEN_CACHE_TTL_MS;
    if (!live) this.cache.clear();
  }
}

function toEntry(hash: string, doc: OAuthEntryDoc): CachedToken | null {
  const p = doc.payload as {
    accountId?: string;
    clientId?: string;
    grantId?: string;
    scope?: string;
    extra?: { svc_account?: string };
  };
  const accountId = p.extra?.svc_account;
  if (!accountId || !p.clientId || !p.grantId) return null;
  return {
    hash,
    grantId: p.grantId,
    clientId: p.clientId,
    expiresAt: doc.expires_at,
    principal: Object.freeze({
      kind: 'oauth_token',
      id: p.grantId,
      accountId,
      scopes: Object.freeze((p.scope ?? '').split(' ').filter(Boolean)),
      clientId: p.clientId,
    }) as OAuthTokenPrincipal,
  };
}
