import { AppError } from '#common';
import type { RateLimits } from '../accounts/account.events.js';
import { windowStart, type RateLimitStore } from './rate-limit.port.js';

export interface RateLimitDecision {
  allowed: boolean;
  /** Headers of the window with the fewest requests left (D7). */
  headers: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
  /** Seconds until the exhausted window resets; set when not allowed. */
  retryAfter?: number;
}

/**
 * D7: a 60 s and a 3600 s fixed window per account. The headers describe the window with the
 * fewest requests left; `X-RateLimit-Reset` is that window's end in Unix epoch seconds.
 */
export async function checkRateLimit(store: RateLimitStore, accountId: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
  const windows = [
    { seconds: 60, limit: limits.per_minute },
    { seconds: 3600, limit: limits.per_hour },
  ];
  const counts = await Promise.all(windows.map((w) => store.hit(`acct:${accountId}`, w.seconds, now)));
  const states = windows.map((w, i) => ({
    ...w,
    count: counts[i]!,
    remaining: Math.max(0, w.limit - counts[i]!),
    resetMs: windowStart(w.seconds, now) + w.seconds * 1000,
  }));
  const tightest = states.reduce((a, b) => (b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a));
  const exceeded = states.filter((s) => s.count > s.limit);
  const headers = {
    'X-RateLimit-Limit': String(tightest.limit),
    'X-RateLimit-Remaining': String(tightest.remaining),
    'X-RateLimit-Reset': String(Math.ceil(tightest.resetMs / 1000)),
  };
  if (exceeded.length === 0) return { allowed: true, headers };
  const resetMs = Math.max(...exceeded.map((s) => s.resetMs));
  return { allowed: false, headers, retryAfter: Math.max(1, Math.ceil((resetMs - now.getTime()) / 1000)) };
}

export function rateLimitExceeded(decision: RateLimitDecision): AppError {
  const retryAfter = decision.retryAfter ?? 1;
  return new AppError(
    429,
    'rate_limit_exceeded',
    'RATE_LIMIT_EXCEEDED',
    `Rate limit exceeded. Retry in ${retryAfter} seconds.`,
    { retry_after: retryAfter },
    { ...decision.headers, 'Retry-After': String(retryAfter) },
  );
}
