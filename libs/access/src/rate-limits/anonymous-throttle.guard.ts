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

/**
 * What an anonymous request does: make an account (and its key), sign a person in, or write
 * anything else. Each has its own budget per address, so a flood of one kind closes no other door.
 */
export type AnonymousWrite = 'signup' | 'sign_in' | 'write';

const ANONYMOUS_WRITE = Symbol('ANONYMOUS_WRITE');

interface ThrottledRequest {
  ip?: string;
  method?: string;
  url?: string;
}

/**
 * Limits on writes anyone can make without a key (OWASP API4): per client address, accounts per
 * hour (SVC_SIGNUP_LIMIT_PER_HOUR), sign-in attempts per minute (SVC_SIGN_IN_LIMIT_PER_MINUTE)
 * or other writes per minute (SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE); and the signups and writes
 * that passed their address's limit, all together per minute
 * (SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE), so a flood from many addresses still hits a ceiling.
 * Counted in the rate-limit store (in memory embedded, MongoDB scaled). The client address is
 * Fastify's `request.ip`: the socket's, or X-Forwarded-For only from SVC_TRUSTED_PROXIES.
 * (ADR 0072: what one address is refused never counts against the others.)
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
    const [counter, window] = OWN_BUDGETS[kind](limits);
    const own = await checkCounter(this.store, `${counter}:${address}`, [window], now);
    // Refused here, the request is the sender's problem alone: it must not use up the ceiling
    // that every other address shares (one address could otherwise close the doors for all).
    if (!own.allowed) throw throttled(own, request, 'from your address');
    // Sign-in stays out of the ceiling: a flood of other writes from many addresses must not
    // keep people from signing in (its guessing is bounded per email by the sign-in throttle).
    if (kind === 'sign_in') return;
    const all = await checkCounter(this.store, 'anon-all', [{ seconds: 60, limit: limits.globalPerMinute }], now);
    if (!all.allowed) throw throttled(all, request, 'from all clients together');
  }
}

/** Each kind's counter (per address) and window. */
const OWN_BUDGETS: Record<
  AnonymousWrite,
  (limits: AppConfig['anonymousLimits']) => [counter: string, window: { seconds: number; limit: number }]
> = {
  signup: (limits) => ['anon-signup', { seconds: 3600, limit: limits.signupsPerHour }],
  sign_in: (limits) => ['anon-signin', { seconds: 60, limit: limits.signInsPerMinute }],
  write: (limits) => ['anon-write', { seconds: 60, limit: limits.writesPerMinute }],
};

function throttled(decision: RateLimitDecision, request: ThrottledRequest, scope: string): AppError {
  const retryAfter = decision.retryAfter ?? 1;
  return new AppError(
    'rate_limited',
    'RATE_LIMIT_EXCEEDED',
    `Too many requests without an API key ${scope}. Retry in ${retryAfter} seconds, or use the key you already have.`,
    {
      retry_after: retryAfter,
      next_actions: [
        { action: 'retry_later', method: request.method ?? 'POST', url: request.url ?? '/', retry_after: retryAfter },
        { action: 'use_existing_key', method: 'GET', url: '/api/v1/agents/status' },
      ],
    },
  );
}

/** Marks a route anyone may call without a key that creates something: counted per address. */
export function AnonymousLimit(kind: AnonymousWrite): MethodDecorator {
  return applyDecorators(SetMetadata(ANONYMOUS_WRITE, kind), UseGuards(AnonymousThrottleGuard));
}
