import { AppError, type MaybePromise, whenReady } from '#kernel';
import { type RateLimits, windowStart, type RateLimitStore } from './rate-limit.port.js';

export interface RateLimitDecision {
  allowed: boolean;
  /** Headers of the window with the fewest requests left (D7). */
  headers: { 'X-RateLimit-Limit': string; 'X-RateLimit-Remaining': string; 'X-RateLimit-Reset': string };
  /** Seconds until the exhausted window resets; set when not allowed. */
  retryAfter?: number;
}

/** A fixed window: its length in seconds and the requests it allows. */
interface Window {
  seconds: number;
  limit: number;
}

/** A set of windows counted together, with their lengths listed once for the store. */
interface Windows {
  list: readonly Window[];
  seconds: readonly number[];
}

function windows(list: Window[]): Windows {
  return Object.freeze({ list: Object.freeze(list), seconds: Object.freeze(list.map((w) => w.seconds)) });
}

/**
 * D7: a 60 s and a 3600 s fixed window per account. The headers describe the window with the
 * fewest requests left (on a tie, the one resetting later); `X-RateLimit-Reset` is that
 * window's end in Unix epoch seconds. Every request counts, refused ones included.
 */
export function checkRateLimit(
  store: RateLimitStore,
  accountId: string,
  limits: RateLimits,
  now: Date,
): RateLimitDecision | Promise<RateLimitDecision> {
  let account = accountWindows.get(limits);
  if (!account) {
    account = windows([
      { seconds: 60, limit: limits.per_minute },
      { seconds: 3600, limit: limits.per_hour },
    ]);
    accountWindows.set(limits, account);
  }
  return checkWindows(store, accountCounter(accountId), account, now);
}

/** What an account has used of its D7 windows so far (counting nothing), with their ends. */
export interface AccountUsage {
  per_minute: { used: number; resets_at: string };
  per_hour: { used: number; resets_at: string };
}

export async function accountUsage(store: RateLimitStore, accountId: string, now: Date): Promise<AccountUsage> {
  const [minute = 0, hour = 0] = await store.count(accountCounter(accountId), [60, 3600], now);
  const end = (seconds: number) => new Date(windowStart(seconds, now) + seconds * 1000).toISOString();
  return { per_minute: { used: minute, resets_at: end(60) }, per_hour: { used: hour, resets_at: end(3600) } };
}

/** The counter all keys (and tokens) of an account share. */
const accountCounter = (accountId: string) => `acct:${accountId}`;

/** Made once per limits object (the limiter caches an account's limits), not per request. */
const accountWindows = new WeakMap<RateLimits, Windows>();

/**
 * D7 for the agent surface: one 60 s fixed window per key (`perMinute`, 600 unless configured).
 * Same headers and 429 as the platform's.
 */
export function checkKeyRateLimit(
  store: RateLimitStore,
  keyId: string,
  perMinute: number,
  now: Date,
): RateLimitDecision | Promise<RateLimitDecision> {
  let key = keyWindows.get(perMinute);
  if (!key) {
    key = windows([{ seconds: 60, limit: perMinute }]);
    keyWindows.set(perMinute, key);
  }
  return checkWindows(store, `key:${keyId}`, key, now);
}

/** By per-minute limit (one configured value in practice). */
const keyWindows = new Map<number, Windows>();

/**
 * Counts one hit in every window of `counter` (one store call) and decides; synchronously when
 * the store answers synchronously (the in-memory one).
 */
function checkWindows(
  store: RateLimitStore,
  counter: string,
  { list, seconds }: Windows,
  now: Date,
): RateLimitDecision | Promise<RateLimitDecision> {
  const counts = store.hit(counter, seconds, now);
  return Array.isArray(counts) ? decide(list, counts, now) : counts.then((c) => decide(list, c, now));
}

function decide(windows: readonly Window[], counts: number[], now: Date): RateLimitDecision {
  // The tightest window: fewest requests left, on a tie the one resetting later.
  let tightest = 0;
  let tightestLeft = 0;
  let tightestResetMs = 0;
  // Retry once every exhausted window has reset.
  let retryAtMs = -1;
  for (let i = 0; i < windows.length; i++) {
    const window = windows[i]!;
    const count = counts[i]!;
    const left = Math.max(0, window.limit - count);
    const resetMs = windowStart(window.seconds, now) + window.seconds * 1000;
    if (i === 0 || left < tightestLeft || (left === tightestLeft && resetMs >= tightestResetMs)) {
      tightest = i;
      tightestLeft = left;
      tightestResetMs = resetMs;
    }
    if (count > window.limit && resetMs > retryAtMs) retryAtMs = resetMs;
  }
  const headers = {
    'X-RateLimit-Limit': String(windows[tightest]!.limit),
    'X-RateLimit-Remaining': String(tightestLeft),
    'X-RateLimit-Reset': String(Math.ceil(tightestResetMs / 1000)),
  };
  if (retryAtMs < 0) return { allowed: true, headers };
  return { allowed: false, headers, retryAfter: Math.max(1, Math.ceil((retryAtMs - now.getTime()) / 1000)) };
}

/**
 * Puts the decision's X-RateLimit-* headers on the reply; throws the 429 when it refuses. A
 * decision still to come (a remote counter store) is applied when it comes: the promise is
 * returned; a decision at hand returns undefined.
 */
export function enforceDecision(
  decision: MaybePromise<RateLimitDecision>,
  reply: { header(name: string, value: string): unknown },
): MaybePromise<void> {
  return whenReady(decision, (d) => apply(d, reply));
}

function apply(decision: RateLimitDecision, reply: { header(name: string, value: string): unknown }): undefined {
  reply.header('X-RateLimit-Limit', decision.headers['X-RateLimit-Limit']);
  reply.header('X-RateLimit-Remaining', decision.headers['X-RateLimit-Remaining']);
  reply.header('X-RateLimit-Reset', decision.headers['X-RateLimit-Reset']);
  if (!decision.allowed) throw rateLimitExceeded(decision);
  return undefined;
}

export function rateLimitExceeded(decision: RateLimitDecision): AppError {
  const retryAfter = decision.retryAfter ?? 1;
  return new AppError(
    'rate_limited',
    'RATE_LIMIT_EXCEEDED',
    `Rate limit exceeded. Retry in ${retryAfter} seconds.`,
    { retry_after: retryAfter },
    // The window's counters (X-RateLimit-* over HTTP, _meta over MCP); Retry-After from retry_after.
    decision.headers,
  );
}

/** Counts one hit of `counter` in fixed windows given by length and limit (anonymous limits). */
export function checkCounter(
  store: RateLimitStore,
  counter: string,
  list: Array<{ seconds: number; limit: number }>,
  now: Date,
): RateLimitDecision | Promise<RateLimitDecision> {
  return checkWindows(store, counter, windows(list), now);
}
