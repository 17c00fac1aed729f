import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  checkCounter,
  RATE_LIMIT_STORE,
  type RateLimitDecision,
  type RateLimitStore,
  rateLimitExceeded,
} from '#access';
import { httpErrorBody, httpErrorOf } from '#http';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';

/**
 * The OAuth doors, each with its own budget per client address: `token` (POST /oauth/token and
 * /oauth/revoke, which take a client secret or a token: SVC_OAUTH_LIMIT_PER_MINUTE) and
 * `authorization` (GET /oauth/authorize[/:uid] and the consent pages under /oauth/interaction,
 * which anyone can call and which make the provider's interaction documents:
 * SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE). A browser flood of one cannot lock out the other.
 */
export type OAuthDoor = 'token' | 'authorization';

/**
 * Per-address limits on the OAuth endpoints (ADRs 0071, 0075). oidc-provider's routes are
 * mounted on Fastify outside Nest's router, so Nest guards never run there: they get Fastify
 * `onRequest` hooks; the consent pages are Nest controllers and get the guard below. The count
 * lives in the rate-limit store (shared by the api processes); the client address is Fastify's
 * `request.ip` (X-Forwarded-For only from SVC_TRUSTED_PROXIES). Over the limit: 429 with the
 * platform's rate-limit error (`error: rate_limit_exceeded`, `code`, `message`, `retry_after`),
 * `Retry-After` and `X-RateLimit-*`, before oidc-provider reads the request.
 */
@Injectable()
export class OAuthThrottle {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG)
    private readonly config: Pick<AppConfig, 'oauthLimitPerMinute' | 'oauthAuthorizeLimitPerMinute'>,
  ) {}

  /** Counts one request of `address` at `door`. */
  async check(door: OAuthDoor, address: string): Promise<RateLimitDecision> {
    // The token door keeps its original counter name (ADR 0071).
    const [counter, limit] =
      door === 'token'
        ? [`oauth:${address}`, this.config.oauthLimitPerMinute]
        : [`oauth-authorize:${address}`, this.config.oauthAuthorizeLimitPerMinute];
    return checkCounter(this.store, counter, [{ seconds: 60, limit }], this.clock.now());
  }

  /** The `onRequest` hook of the token and revocation endpoints. */
  readonly onRequest = (request: FastifyRequest, reply: FastifyReply) => this.hook('token', request, reply);

  /** The `onRequest` hook of the authorization endpoint (and its resume route). */
  readonly onAuthorizationRequest = (request: FastifyRequest, reply: FastifyReply) =>
    this.hook('authorization', request, reply);

  private async hook(door: OAuthDoor, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const decision = await this.check(door, request.ip);
    if (decision.allowed) return undefined;
    // The platform's rate-limit error (the body and headers every other 429 of /v1 has).
    const refused = httpErrorOf(rateLimitExceeded(decision));
    // An async hook that answered returns the reply: Fastify then skips the handler.
    return reply
      .code(refused.status)
      .headers({ ...refused.headers, 'Cache-Control': 'no-store' })
      .send(httpErrorBody(refused));
  }
}

/**
 * The authorization door's limit on the consent pages (Nest controllers): the same budget as
 * /oauth/authorize; the 429 is the page filter's rendering of the rate-limit error.
 */
@Injectable()
export class OAuthAuthorizationThrottleGuard implements CanActivate {
  constructor(private readonly throttle: OAuthThrottle) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const decision = await this.throttle.check('authorization', request.ip);
    if (!decision.allowed) throw rateLimitExceeded(decision);
    return true;
  }
}
