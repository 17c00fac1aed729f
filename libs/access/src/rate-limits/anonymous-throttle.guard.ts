import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
  UseGuards,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { APP_CONFIG, type AppConfig, AppError, CLOCK, type Clock } from '#kernel';
import { checkCounter, type RateLimitDecision } from './rate-limit.policy.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit.port.js';

/** What an anonymous request makes: an account (and its key), or anything else that is written. */
export type AnonymousWrite = 'signup' | 'write';

const ANONYMOUS_WRITE = Symbol('ANONYMOUS_WRITE');

interface ThrottledRequest {
  ip?: string;
  method?: string;
  url?: string;
}

/**
 * Limits on writes anyone can make without a key (OWASP API4): per client address, accounts per
 * hour (SVC_SIGNUP_LIMIT_PER_HOUR) or other writes per minute
 * (SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE), and all anonymous writes together per minute
 * (SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE) so a flood from many addresses still hits a ceiling.
 * Counted in the rate-limit store (in memory embedded, MongoDB scaled). The client address is
 * Fastify's `request.ip`: the socket's, or X-Forwarded-For only from SVC_TRUSTED_PROXIES.
 */
@Injectable()
export class AnonymousThrottleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'anonymousLimits'>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const kind = this.reflector.get<AnonymousWrite>(ANONYMOUS_WRITE, context.getHandler());
    await this.check(kind, context.switchToHttp().getRequest<ThrottledRequest>());
    return true;
  }

  /** Counts one anonymous write of `kind` from the request's address; 429 when over a limit. */
  async check(kind: AnonymousWrite, request: ThrottledRequest): Promise<void> {
    const now = this.clock.now();
    const limits = this.config.anonymousLimits;
    const address = request.ip ?? 'unknown';
    const own =
      kind === 'signup'
        ? await checkCounter(
            this.store,
            `anon-signup:${address}`,
            [{ seconds: 3600, limit: limits.signupsPerHour }],
            now,
          )
        : await checkCounter(
            this.store,
            `anon-write:${address}`,
            [{ seconds: 60, limit: limits.writesPerMinute }],
            now,
          );
    // Every attempt counts against the ceiling too, refused ones included: it bounds load.
    const all = await checkCounter(this.store, 'anon-all', [{ seconds: 60, limit: limits.globalPerMinute }], now);
    if (!own.allowed) throw throttled(own, request, 'from your address');
    if (!all.allowed) throw throttled(all, request, 'from all clients together');
  }
}

function throttled(decision: RateLimitDecision, request: ThrottledRequest, scope: string): AppError {
  const retryAfter = decision.retryAfter ?? 1;
  return new AppError(
    429,
    'rate_limit_exceeded',
    'RATE_LIMIT_EXCEEDED',
    `Too many requests without an API key ${scope}. Retry in ${retryAfter} seconds, or use the key you already have.`,
    {
      retry_after: retryAfter,
      next_actions: [
        { action: 'retry_later', method: request.method ?? 'POST', url: request.url ?? '/', retry_after: retryAfter },
        { action: 'use_existing_key', method: 'GET', url: '/api/v1/agents/status' },
      ],
    },
    { 'Retry-After': String(retryAfter) },
  );
}

/** Marks a route anyone may call without a key that creates something: counted per address. */
export function AnonymousLimit(kind: AnonymousWrite): MethodDecorator {
  return applyDecorators(SetMetadata(ANONYMOUS_WRITE, kind), UseGuards(AnonymousThrottleGuard));
}
