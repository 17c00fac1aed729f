import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, BoundedCache, type MaybePromise, whenReady } from '#kernel';
import { parseApiKey } from '../keys/api-key-format.js';
import { ProjectionStore, ReadYourWrites } from '#projections';
import { unauthorized } from '../auth/auth-errors.js';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import type { KeySurface } from './api-key.events.js';
import { ApiKeyUsageTracker } from './api-key-usage.js';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from './api-keys.projection.js';

/** How long a looked-up key is trusted: with the projection lag, a revocation elsewhere shows within a second. */
export const KEY_CACHE_TTL_MS = 500;
/** How long while ApiKeyRevocationWatch runs: revocations then arrive as events (a backstop only). */
export const KEY_CACHE_WATCHED_TTL_MS = 60_000;
/** Revocations remembered ahead of the read model (see revoked). */
const REVOKED_MAX = 100_000;
/** Keys held at most (only live keys can fill it); the oldest go first. */
const KEY_CACHE_MAX = 50_000;

type CachedKey = Pick<
  ApiKeyDoc,
  'id' | 'account_id' | 'scopes' | 'surface' | 'environment' | 'key_hash' | 'revoked_at'
> & {
  /** The key's principal, made once (frozen: every request of the key shares it). */
  principal?: ApiKeyPrincipal;
};

const SURFACE_NAMES: Record<KeySurface, string> = {
  platform: 'the platform API (/v1)',
  agent: 'the agent data API (/api/v1)',
};

/**
 * Resolves a raw API key to who it acts for, for both surfaces (D1, D2):
 * 1. shape and CRC32 checksum, and the deployment's environment, before any lookup;
 * 2. lookup by SHA-256 in the api-keys read model (unique index: cost independent of the number
 *    of keys), then a constant-time comparison of the hashes;
 * 3. revoked → REVOKED_KEY; issued by the other surface → KEY_WRONG_SURFACE.
 * Looked-up keys are cached per process for at most KEY_CACHE_TTL_MS (monotonic time), by the
 * key's value, so a cached request skips the checksum and the SHA-256 too; a revoke in this
 * process drops its entry at once (`revoked`). While ApiKeyRevocationWatch reports every
 * revocation of every process, entries live KEY_CACHE_WATCHED_TTL_MS. Failures throw 401 AppErrors.
 * This is the one key cache of the process: both surfaces authenticate through it.
 */
@Injectable()
export class ApiKeyAuthenticator {
  private readonly cache = new BoundedCache<string, CachedKey>({ maxEntries: KEY_CACHE_MAX });
  /**
   * Keys revoked (here, or elsewhere as the watch reports) whose read-model document may not
   * show it yet. Bounded: long before this many, the read model shows the older ones by itself.
   */
  private readonly revokedHere = new BoundedCache<string, true>({ maxEntries: REVOKED_MAX });
  private ttlMs = KEY_CACHE_TTL_MS;

  constructor(
    private readonly projections: ProjectionStore,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'env'>,
    private readonly usage: ApiKeyUsageTracker,
    /** Absent in unit specs: a miss is then answered from the read model as it stands. */
    @Optional() private readonly readYourWrites?: ReadYourWrites,
  ) {}

  /**
   * The principal of a raw key, or a 401 AppError. A cached key is answered synchronously (no
   * parsing, hashing or promise: the path of nearly every request); otherwise a promise.
   * Failures of the synchronous path throw.
   */
  authenticate(rawKey: string, surface: KeySurface): MaybePromise<ApiKeyPrincipal> {
    return whenReady(this.cache.get(rawKey) ?? this.lookup(rawKey), (doc) => this.principalOf(doc, surface));
  }

  /**
   * The principal of a key this cache holds (or its 401: revoked, the other surface), in the
   * same tick; undefined for a key it does not hold, which then takes the full path.
   */
  cachedPrincipal(rawKey: string | undefined, surface: KeySurface): ApiKeyPrincipal | undefined {
    const doc = rawKey === undefined ? undefined : this.cache.get(rawKey);
    return doc ? this.principalOf(doc, surface) : undefined;
  }

  private principalOf(doc: CachedKey, surface: KeySurface): ApiKeyPrincipal {
    if (doc.revoked_at !== null || this.revokedHere.has(doc.id))
      throw unauthorized('REVOKED_KEY', 'The API key has been revoked.');
    if (doc.surface !== surface) {
      throw unauthorized(
        'KEY_WRONG_SURFACE',
        `This key was issued for ${SURFACE_NAMES[doc.surface]} and is not accepted here.`,
      );
    }
    this.usage.touch(doc.id);
    return (doc.principal ??= Object.freeze({
      kind: 'api_key',
      id: doc.id,
      keyId: doc.id,
      accountId: doc.account_id,
      scopes: doc.scopes,
      surface: doc.surface,
      environment: doc.environment,
    }) as ApiKeyPrincipal);
  }

  /** Refuse a key at once: it was just revoked (the read model follows). */
  revoked(keyId: string): void {
    this.revokedHere.set(keyId, true);
    this.invalidate(keyId);
  }

  /**
   * Whether every revocation now reaches `revoked` as it happens (ApiKeyRevocationWatch). Off:
   * the cache is dropped, since its entries were trusted for longer than the short lifetime.
   */
  revocationWatch(live: boolean): void {
    this.ttlMs = live ? KEY_CACHE_WATCHED_TTL_MS : KEY_CACHE_TTL_MS;
    if (!live) this.cache.clear();
  }

  /** Forget what the cache holds about a key. */
  invalidate(keyId: string): void {
    this.cache.deleteWhere((doc) => doc.id === keyId);
  }

  /** Shape, checksum and environment first (no lookup for those), then the read model by hash. */
  private async lookup(rawKey: string): Promise<CachedKey> {
    const parsed = parseApiKey(rawKey);
    if (!parsed.ok) {
      throw unauthorized(
        'INVALID_KEY',
        parsed.reason === 'bad_checksum'
          ? 'The API key is not valid (checksum mismatch).'
          : 'The API key is not valid.',
      );
    }
    if (parsed.env !== this.config.env) {
      throw unauthorized(
        'KEY_WRONG_ENVIRONMENT',
        `This is a ${parsed.env} key; this deployment accepts svc_${this.config.env}_ keys only.`,
      );
    }
    let doc = await this.findByHash(parsed.hash);
    // A key another process (the CLI, another instance) issued a moment ago may not be in this
    // read model yet: wait once for it to show the store's head, then look again. Only a
    // well-formed key with a valid checksum gets here, and the wait is bounded.
    if (!doc && (await this.readYourWrites?.catchUpWithStore([API_KEYS_PROJECTION]).catch(() => false)))
      doc = await this.findByHash(parsed.hash);
    if (!doc || !sameHash(doc.key_hash, parsed.hash)) {
      // Unknown keys are not cached: a key created a moment later must work at once.
      this.cache.delete(rawKey);
      throw unauthorized('INVALID_KEY', 'The API key is not valid.');
    }
    // Once the read model shows the revocation, the local mark is no longer needed.
    if (doc.revoked_at !== null) this.revokedHere.delete(doc.id);
    const cached: CachedKey = {
      id: doc.id,
      account_id: doc.account_id,
      scopes: Object.freeze([...doc.scopes]) as string[],
      surface: doc.surface,
      environment: doc.environment,
      key_hash: doc.key_hash,
      revoked_at: doc.revoked_at,
    };
    this.cache.set(rawKey, cached, this.ttlMs);
    return cached;
  }

  private async findByHash(hash: string): Promise<ApiKeyDoc | undefined> {
    const { items } = await this.projections
      .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
      .find({ key_hash: hash }, { limit: 1 });
    return items[0];
  }
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
