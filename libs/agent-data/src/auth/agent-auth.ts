import { applyDecorators, type CanActivate, createParamDecorator, type ExecutionContext, Inject, Injectable, UseGuards } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';
import { type ApiKeyPrincipal, ApiKeyAuthenticator, ApiKeyUsageTracker, checkKeyRateLimit, enforceDecision, KEY_CACHE_TTL_MS, RATE_LIMIT_STORE, type RateLimitStore, unauthorized } from '#access';

/** Who an agent-surface request acts for: an agent key of the account. */
export type AgentPrincipal = ApiKeyPrincipal;

export interface AgentRequest {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  principal?: AgentPrincipal;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The key an agent-surface request carries: `x-api-key` or `Authorization: Bearer` (spec,
 * Authentication, agent API). Undefined when neither header is present.
 */
export function agentKeyFrom(headers: AgentRequest['headers']): string | undefined {
  const apiKey = first(headers['x-api-key'])?.trim();
  if (apiKey) return apiKey;
  const authorization = first(headers.authorization);
  if (authorization === undefined) return undefined;
  const m = /^bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!m) throw unauthorized('MISSING_AUTH', 'The Authorization header must be "Bearer <API key>"; or send the key in x-api-key.');
  return m[1];
}

/**
 * Resolves agent keys with the platform's authenticator (lookup by SHA-256 in the shared
 * api-keys read model): a platform key here gets 401 KEY_WRONG_SURFACE (D1).
 */
/** Keys resolved recently, by value: at most this many (cleared when full). */
const CACHE_MAX = 50_000;

@Injectable()
export class AgentAuthenticator {
  /**
   * Principals of keys resolved in the last KEY_CACHE_TTL_MS, by key value, so the hot path of a
   * paid call skips the checksum and SHA-256 (the platform authenticator caches by hash). Held
   * in memory only, like the request that carried the key; the same staleness bound as the
   * platform's cache, and `forget` drops a key at once when this process revokes it.
   */
  private readonly cache = new Map<string, { principal: AgentPrincipal; expires: number }>();

  constructor(
    private readonly keys: ApiKeyAuthenticator,
    private readonly usage: ApiKeyUsageTracker,
  ) {}

  /**
   * The principal of the request; 401 when it has no key or a key that does not work here.
   * Synchronous for a key resolved recently (the hot path of a paid call), else a promise.
   */
  require(request: AgentRequest): AgentPrincipal | Promise<AgentPrincipal> {
    if (request.principal) return request.principal;
    const raw = agentKeyFrom(request.headers);
    if (raw === undefined) throw unauthorized('MISSING_AUTH', 'An API key is required: send it in the x-api-key header (or Authorization: Bearer).');
    const now = performance.now();
    const cached = this.cache.get(raw);
    if (cached && cached.expires > now) {
      this.usage.touch(cached.principal.keyId);
      request.principal = cached.principal;
      return cached.principal;
    }
    return this.resolve(request, raw, now);
  }

  private async resolve(request: AgentRequest, raw: string, now: number): Promise<AgentPrincipal> {
    const principal = await this.keys.authenticate(raw, 'agent');
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(raw, { principal, expires: now + KEY_CACHE_TTL_MS });
    request.principal = principal;
    return principal;
  }

  /** Like require, but a request without any key header is anonymous (undefined). */
  async optional(request: AgentRequest): Promise<AgentPrincipal | undefined> {
    if (agentKeyFrom(request.headers) === undefined) return undefined;
    return this.require(request);
  }

  /** Forget a key at once (this process revoked it). */
  forget(keyId: string): void {
    for (const [raw, entry] of this.cache) if (entry.principal.keyId === keyId) this.cache.delete(raw);
  }
}

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * D7 on the agent surface: every request made with a key counts against that key's per-minute
 * budget (SVC_AGENT_RATE_LIMIT_PER_MINUTE, 600); the X-RateLimit-* headers go on the reply and an
 * exhausted key gets 429 RATE_LIMIT_EXCEEDED with Retry-After. The counters are the platform's
 * store (in memory embedded, MongoDB when scaled, so the budget holds across instances).
 */
@Injectable()
export class AgentRateLimiter {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'agentRateLimitPerMinute'>,
  ) {}

  /** Undefined when it decided synchronously (counters in memory), else a promise. */
  enforce(principal: AgentPrincipal, reply: Reply): Promise<void> | undefined {
    return enforceDecision(checkKeyRateLimit(this.store, principal.keyId, this.config.agentRateLimitPerMinute, this.clock.now()), reply);
  }
}

/** The route needs an agent key; the request counts against the key's rate limit (D7). */
@Injectable()
export class AgentKeyGuard implements CanActivate {
  constructor(
    private readonly auth: AgentAuthenticator,
    private readonly limiter: AgentRateLimiter,
  ) {}

  /** Synchronous (no promise for Nest to await) when the key is cached and the counters are in memory. */
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AgentRequest & { rateLimited?: boolean }>();
    const principal = this.auth.require(request);
    if (principal instanceof Promise) return principal.then((p) => this.count(request, http.getResponse<Reply>(), p));
    return this.count(request, http.getResponse<Reply>(), principal);
  }

  private count(request: AgentRequest & { rateLimited?: boolean }, reply: Reply, principal: AgentPrincipal): boolean | Promise<boolean> {
    // Applied on a controller and a route, or by two decorators: counted once.
    if (request.rateLimited) return true;
    request.rateLimited = true;
    const counted = this.limiter.enforce(principal, reply);
    return counted ? counted.then(() => true) : true;
  }
}

/** The route needs an agent key (x-api-key or Authorization: Bearer). */
export const AgentAuth = () => applyDecorators(UseGuards(AgentKeyGuard));

/** The authenticated agent key of the request (after AgentAuth or Metered). */
export const CurrentAgent = createParamDecorator((_data: unknown, context: ExecutionContext): AgentPrincipal => {
  const principal = context.switchToHttp().getRequest<AgentRequest>().principal;
  if (!principal) throw new Error('CurrentAgent used on a route without AgentAuth');
  return principal;
});
