import { Inject, Injectable } from '@nestjs/common';
import {
  checkCounter,
  checkKeyRateLimit,
  RATE_LIMIT_STORE,
  type RateLimitDecision,
  type RateLimitStore,
  rateLimitExceeded,
} from '#access';
import { APP_CONFIG, type AppConfig, AppError, CLOCK, type Clock, type MaybePromise } from '#kernel';

/** Whose budget an MCP message counts against: its key's, or without a key its client address's. */
export type McpCaller = { keyId: string } | { address: string };

/**
 * What each MCP message costs its caller (ADR 0074): with a key, one request of the key's D7
 * budget (SVC_AGENT_RATE_LIMIT_PER_MINUTE, the counter every keyed /api/v1 request uses);
 * without one, one of the client address's SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE, a counter of its
 * own: an anonymous flood spends nothing that signups, OAuth clients or other addresses need.
 * Refused messages count too (D7), against the same caller only.
 */
@Injectable()
export class McpRateLimits {
  private readonly anonymousWindows: Array<{ seconds: number; limit: number }>;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'agentRateLimitPerMinute' | 'mcp'>,
  ) {
    this.anonymousWindows = [{ seconds: 60, limit: config.mcp.anonymousPerMinute }];
  }

  /** Counts one message; synchronous when the counters are in memory. */
  count(caller: McpCaller): MaybePromise<RateLimitDecision> {
    const now = this.clock.now();
    return 'keyId' in caller
      ? checkKeyRateLimit(this.store, caller.keyId, this.config.agentRateLimitPerMinute, now)
      : checkCounter(this.store, `mcp-anon:${caller.address}`, this.anonymousWindows, now);
  }

  /** The 429 of a refused decision: the agent surface's rate-limit error, headers included. */
  refusal(decision: RateLimitDecision, caller: McpCaller): AppError {
    if ('keyId' in caller) return rateLimitExceeded(decision);
    const retryAfter = decision.retryAfter ?? 1;
    return new AppError(
      'rate_limited',
      'RATE_LIMIT_EXCEEDED',
      `Too many MCP messages without an API key from your address (${this.config.mcp.anonymousPerMinute} a minute, each message of a batch counting). Retry in ${retryAfter} seconds, or send your key as x-api-key.`,
      { retry_after: retryAfter },
      decision.headers,
    );
  }
}
