import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, type MaybePromise, whenReady } from '#kernel';
import type { Principal } from '../auth/principal.js';
import { checkRateLimit, enforceDecision } from './rate-limit.policy.js';
import {
  ACCOUNT_RATE_LIMITS,
  type AccountRateLimits,
  RATE_LIMIT_STORE,
  type RateLimits,
  type RateLimitStore,
} from './rate-limit.port.js';

/** How long an account's limits are trusted; a plan change elsewhere shows within it. */
const LIMITS_CACHE_TTL_MS = 1000;

interface Reply {
  header(name: string, value: string): unknown;
}

/**
 * D7 for the platform surface: counts every authenticated request against its account (all keys
 * of an account share the budget), sets the X-RateLimit-* headers on the reply and throws the
 * 429 when a window is exhausted. The account's limits come from ACCOUNT_RATE_LIMITS (the
 * platform's accounts read model), cached per process for a second.
 */
@Injectable()
export class PlatformRateLimiter {
  private readonly limits = new Map<string, { limits: RateLimits; expires: number }>();

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(ACCOUNT_RATE_LIMITS) private readonly accounts: AccountRateLimits,
  ) {}

  /** Undefined when it decided synchronously (limits cached, counters in memory), else a promise. */
  enforce(principal: Principal, reply: Reply): MaybePromise<void> {
    return whenReady(this.cachedLimits(principal.accountId) ?? this.limitsOf(principal.accountId), (limits) =>
      this.decide(principal, limits, reply),
    );
  }

  private decide(principal: Principal, limits: RateLimits, reply: Reply): MaybePromise<void> {
    return enforceDecision(checkRateLimit(this.store, principal.accountId, limits, this.clock.now()), reply);
  }

  /** Forget an account's cached limits (after this process changed its plan). */
  invalidate(accountId: string): void {
    this.limits.delete(accountId);
  }

  private cachedLimits(accountId: string): RateLimits | undefined {
    const cached = this.limits.get(accountId);
    return cached && cached.expires > performance.now() ? cached.limits : undefined;
  }

  private async limitsOf(accountId: string): Promise<RateLimits> {
    const now = performance.now();
    const { limits, cacheable } = await this.accounts.limitsOf(accountId);
    if (cacheable) this.limits.set(accountId, { limits, expires: now + LIMITS_CACHE_TTL_MS });
    return limits;
  }
}
