import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkCounter, RATE_LIMIT_STORE, type RateLimitStore, rateLimitExceeded } from '#access';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock } from '#kernel';

/**
 * A limit on the OAuth endpoints that take a client secret or a token (POST /oauth/token and
 * /oauth/revoke): SVC_OAUTH_LIMIT_PER_MINUTE per client address, so a client secret cannot be
 * guessed at the speed of the network. These routes are oidc-provider's, mounted on Fastify
 * outside Nest's router, so Nest guards never run there: this is a Fastify `onRequest` hook. The
 * count lives in the rate-limit store (shared by the api processes); the client address is
 * Fastify's `request.ip` (X-Forwarded-For only from SVC_TRUSTED_PROXIES). Over the limit: 429
 * with the platform's rate-limit error (`error: rate_limit_exceeded`, `code`, `message`,
 * `retry_after`), `Retry-After` and `X-RateLimit-*`, before oidc-provider reads the request.
 */
@Injectable()
export class OAuthThrottle {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'oauthLimitPerMinute'>,
  ) {}

  /** The `onRequest` hook: answers 429 and ends the request when the address is over its limit. */
  readonly onRequest = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const decision = await checkCounter(
      this.store,
      `oauth:${request.ip}`,
      [{ seconds: 60, limit: this.config.oauthLimitPerMinute }],
      this.clock.now(),
    );
    if (decision.allowed) return undefined;
    // The platform's rate-limit error (the body and headers every other 429 of /v1 has).
    const refused = rateLimitExceeded(decision);
    // An async hook that answered returns the reply: Fastify then skips the handler.
    return reply
      .code(refused.status)
      .headers({ ...refused.headers, 'Cache-Control': 'no-store' })
      .send(refused.body());
  };
}
