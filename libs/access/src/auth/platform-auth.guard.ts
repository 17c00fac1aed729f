import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { type MaybePromise, whenReady } from '#kernel';
import { Reflector } from '@nestjs/core';
import { PlatformRateLimiter } from '../rate-limits/platform-rate-limiter.js';
import { unauthorized } from './auth-errors.js';
import { type PassportOutcome, BearerStrategy } from './bearer.strategy.js';
import type { Principal } from './principal.js';
import { ScopeCheck } from './scope.guard.js';

interface HttpRequest {
  method?: string;
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

interface HttpReply {
  header(name: string, value: string): unknown;
}

/**
 * Authenticates a platform request with the passport bearer strategy, then counts it against
 * its account's rate limit. Every passport outcome is mapped here, so no failure ever reaches
 * the client as passport's default `401 Unauthorized` text: missing or malformed header →
 * MISSING_AUTH; a token that fails → the resolver's code (INVALID_KEY, REVOKED_KEY, ...).
 * The rate-limit headers are set on the reply before anything else can fail, so 403/404/400
 * answers after authentication carry them too. Then the route's scope (D3, 403): one guard for
 * the three, as each guard is a round of Nest's guard machinery on every request.
 */
@Injectable()
export class PlatformAuthGuard implements CanActivate {
  private readonly scopes: ScopeCheck;

  constructor(
    private readonly strategy: BearerStrategy,
    private readonly rateLimiter: PlatformRateLimiter,
    reflector: Reflector,
  ) {
    this.scopes = new ScopeCheck(reflector);
  }

  /** Synchronous (no promise for Nest to await) when the key is cached and the counters are in memory. */
  canActivate(context: ExecutionContext): MaybePromise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<HttpRequest>();
    // Applied on both a controller and a route, it must authenticate and count once.
    if (request.principal) return true;
    return whenReady(this.authenticate(request), (principal) =>
      this.admit(context, request, http.getResponse<HttpReply>(), principal),
    );
  }

  /** Counts the authenticated request (D7 headers, 429), then checks the route's scope (403). */
  private admit(
    context: ExecutionContext,
    request: HttpRequest,
    reply: HttpReply,
    principal: Principal,
  ): MaybePromise<boolean> {
    request.principal = principal;
    return whenReady(this.rateLimiter.enforce(principal, reply), () => {
      this.scopes.assert(context, request, principal);
      return true;
    });
  }

  private authenticate(request: HttpRequest): MaybePromise<Principal> {
    const header = request.headers.authorization;
    const authorization = Array.isArray(header) ? header[0] : header;
    // Only the header reaches passport: passport-http-bearer would also take `access_token`
    // from the body or query string, where keys end up in logs and caches.
    const outcome = this.strategy.authenticateRequest({
      headers: authorization === undefined ? {} : { authorization },
    });
    return whenReady(outcome, (o) => principalOf(o, authorization));
  }
}

/** The principal passport found, or the 401 for why it found none. */
function principalOf(outcome: PassportOutcome, authorization: string | undefined): Principal {
  if (outcome.principal) return outcome.principal;
  if (outcome.status === 400) {
    throw unauthorized(
      'MISSING_AUTH',
      'The Authorization header is malformed; send "Authorization: Bearer <API key>".',
    );
  }
  if (authorization !== undefined && !/^bearer /i.test(authorization)) {
    throw unauthorized(
      'MISSING_AUTH',
      'The Authorization header must use the Bearer scheme: "Authorization: Bearer <API key>".',
    );
  }
  throw unauthorized('MISSING_AUTH', 'Authentication is required: send "Authorization: Bearer <API key>".');
}
