import {
  applyDecorators,
  type CanActivate,
  createParamDecorator,
  type ExecutionContext,
  Inject,
  Injectable,
  UseGuards,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, type MaybePromise, whenReady } from '#kernel';
import {
  type ApiKeyPrincipal,
  BearerStrategy,
  checkKeyRateLimit,
  enforceDecision,
  RATE_LIMIT_STORE,
  type RateLimitStore,
  unauthorized,
} from '#access';

/** Who an agent-surface request acts for: an agent key of the account. */
export type AgentPrincipal = ApiKeyPrincipal;

export interface AgentRequest {
  id?: string;
  headers: Record<string, string | string[] | undefined>;
  principal?: AgentPrincipal;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The credential an agent-surface request carries, as the Authorization header passport reads:
 * `x-api-key` becomes `Bearer <key>` (spec, Authentication, agent API: either header works).
 * Undefined when neither header is present.
 */
export function agentAuthorization(headers: AgentRequest['headers']): string | undefined {
  const apiKey = first(headers['x-api-key'])?.trim();
  if (apiKey) return `Bearer ${apiKey}`;
  return first(headers.authorization);
}

const BAD_HEADER = 'The Authorization header must be "Bearer <API key>"; or send the key in x-api-key.';

/**
 * Resolves agent keys with the access lib's authenticator (lookup by SHA-256 in the shared
 * api-keys read model, its one key cache): a platform key here gets 401 KEY_WRONG_SURFACE (D1).
 * A key revoked anywhere is refused as soon as that cache knows (at once in the revoking process,
 * through the revocation watch elsewhere), with no second cache in front of it.
 */
@Injectable()
export class AgentAuthenticator {
  constructor(private readonly bearer: BearerStrategy) {}

  /**
   * The principal of the request; 401 when it has no key or a key that does not work here.
   * Synchronous for a key resolved recently (the hot path of a paid call), else a promise.
   */
  require(request: AgentRequest): MaybePromise<AgentPrincipal> {
    if (request.principal) return request.principal;
    const authorization = agentAuthorization(request.headers);
    if (authorization === undefined)
      throw unauthorized(
        'MISSING_AUTH',
        'An API key is required: send it in the x-api-key header (or Authorization: Bearer).',
      );
    // The same passport strategy as the platform's, told the surface (agent keys only here).
    return whenReady(this.bearer.authenticateRequest({ headers: { authorization }, surface: 'agent' }), (outcome) => {
      if (!outcome.principal) throw unauthorized('MISSING_AUTH', BAD_HEADER);
      return (request.principal = outcome.principal as AgentPrincipal);
    });
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
  enforce(principal: AgentPrincipal, reply: Reply): MaybePromise<void> {
    return enforceDecision(
      checkKeyRateLimit(this.store, principal.keyId, this.config.agentRateLimitPerMinute, this.clock.now()),
      reply,
    );
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
  canActivate(context: ExecutionContext): MaybePromise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AgentRequest & { rateLimited?: boolean }>();
    return whenReady(this.auth.require(request), (principal) =>
      this.count(request, http.getResponse<Reply>(), principal),
    );
  }

  private count(
    request: AgentRequest & { rateLimited?: boolean },
    reply: Reply,
    principal: AgentPrincipal,
  ): MaybePromise<boolean> {
    // Applied on a controller and a route, or by two decorators: counted once.
    if (request.rateLimited) return true;
    request.rateLimited = true;
    return whenReady(this.limiter.enforce(principal, reply), () => true);
  }
}

/**
 * A key is optional (the public status), but a request that sends one is authenticated and
 * counted against that key's rate limit like any other keyed request (401 for a key that does
 * not work, X-RateLimit-* headers, 429 when spent).
 */
@Injectable()
export class OptionalAgentKeyGuard implements CanActivate {
  constructor(private readonly keyed: AgentKeyGuard) {}

  canActivate(context: ExecutionContext): MaybePromise<boolean> {
    const request = context.switchToHttp().getRequest<AgentRequest>();
    if (agentAuthorization(request.headers) === undefined) return true;
    return this.keyed.canActivate(context);
  }
}

/** The route takes an agent key optionally; one that is sent counts (see OptionalAgentKeyGuard). */
export const AgentAuthOptional = () => applyDecorators(UseGuards(OptionalAgentKeyGuard));

/** The route needs an agent key (x-api-key or Authorization: Bearer). */
export const AgentAuth = () => applyDecorators(UseGuards(AgentKeyGuard));

/** The authenticated agent key of the request (after AgentAuth or Metered). */
export const CurrentAgent = createParamDecorator((_data: unknown, context: ExecutionContext): AgentPrincipal => {
  const principal = context.switchToHttp().getRequest<AgentRequest>().principal;
  if (!principal) throw new Error('CurrentAgent used on a route without AgentAuth');
  return principal;
});
