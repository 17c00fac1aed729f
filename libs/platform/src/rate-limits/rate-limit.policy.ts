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

const WINDOWS = [60, 3600] as const;
const MINUTE = [60] as const;

/**
 * D7: a 60 s and a 3600 s fixed window per account. The headers describe the window with the
 * fewest requests left (on a tie, the one resetting later); `X-RateLimit-Reset` is that
 * window's end in Unix epoch seconds. Every request counts, refused ones included.
 */
export async function checkRateLimit(store: RateLimitStore, accountId: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
  return checkWindows(store, `acct:${accountId}`, limits, now);
}

/**
 * D7 for the agent surface: one 60 s fixed window per key (`perMinute`, 600 unless configured).
 * Same headers and 429 as the platform's.
 */
export async function checkKeyRateLimit(store: RateLimitStore, keyId: string, perMinute: number, now: Date): Promise<RateLimitDecision> {
  const [count] = await store.hit(`key:${keyId}`, MINUTE, now);
  const resetMs = windowStart(60, now) + 60_000;
  const headers = {
    'X-RateLimit-Limit': String(perMinute),
    'X-RateLimit-Remaining': String(Math.max(0, perMinute - count!)),
    'X-RateLimit-Reset': String(Math.ceil(resetMs / 1000)),
  };
  if (count! <= perMinute) return { allowed: true, headers };
  return { allowed: false, headers, retryAfter: Math.max(1, Math.ceil((resetMs - now.getTime()) / 1000)) };
}

async function checkWindows(store: RateLimitStore, counter: string, limits: RateLimits, now: Date): Promise<RateLimitDecision> {
  const [minuteCount, hourCount] = await store.hit(counter, WINDOWS, now);
  const minute = { limit: limits.per_minute, count: minuteCount!, resetMs: windowStart(60, now) + 60_000 };
  const hour = { limit: limits.per_hour, count: hourCount!, resetMs: windowStart(3600, now) + 3_600_000 };
  const minuteLeft = Math.max(0, minute.limit - minute.count);
  const hourLeft = Math.max(0, hour.limit - hour.count);
  const tightest = hourLeft <= minuteLeft ? hour : minute;
  const headers = {
    'X-RateLimit-Limit': String(tightest.limit),
    'X-RateLimit-Remaining': String(Math.min(minuteLeft, hourLeft)),
    'X-RateLimit-Reset': String(Math.ceil(tightest.resetMs / 1000)),
  };
  const minuteOver = minute.count > minute.limit;
  const hourOver = hour.count > hour.limit;
  if (!minuteOver && !hourOver) return { allowed: true, headers };
  // Retry once every exhausted window has reset.
  const resetMs = hourOver ? hour.resetMs : minute.resetMs;
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
