import { z } from 'zod';
import { int, invalid, trueOrFalse } from './config-fields.js';

/** The webhook dispatcher: whom it may reach, how fast, how often it retries (D12–D14). */
export const webhooksEnv = z.object({
  /** D14: lift the SSRF guard so webhooks may target loopback and private addresses (local use, tests). */
  SVC_WEBHOOK_ALLOW_PRIVATE: trueOrFalse('false'),
  /** D12: a webhook receiver must answer 2xx within this many ms. */
  SVC_WEBHOOK_TIMEOUT_MS: int(10000, 100, 60000),
  /**
   * Test mode only: multiplies the webhook retry schedule (D12: 1 min, 5 min, 30 min, 2 h), so
   * tests and `npm run chaos` see every attempt in seconds; 0.001 makes it 60 ms ... 7.2 s.
   */
  SVC_WEBHOOK_RETRY_SCALE: z.coerce
    .number({ message: 'expected a number' })
    .positive({ message: 'expected more than 0' })
    .max(1, { message: 'expected at most 1' })
    .default(1),
  /**
   * How long a dispatcher holds one attempt's lease (ADR 0070): an attempt sent by a process that
   * died before recording it is recorded (outcome unknown) this long after; at least twice
   * SVC_WEBHOOK_TIMEOUT_MS, so a live sender never outlasts its lease.
   */
  SVC_WEBHOOK_LEASE_MS: int(60000, 1000, 3_600_000),
  /** Webhook requests in flight at most, and per target host (a slow receiver holds only its own). */
  SVC_WEBHOOK_CONCURRENCY: int(256, 1, 10000),
  SVC_WEBHOOK_CONCURRENCY_PER_HOST: int(16, 1, 1000),
  /** Webhook requests in flight per account (or tenant) at most: one tenant cannot take every slot. */
  SVC_WEBHOOK_CONCURRENCY_PER_ACCOUNT: int(64, 1, 10000),
  /** Webhooks one account (or tenant) may have at once, deleted ones not counted. */
  SVC_WEBHOOKS_PER_ACCOUNT: int(20, 1, 10_000),
});

export interface WebhooksConfig {
  /** SVC_WEBHOOK_ALLOW_PRIVATE (D14). */
  webhookAllowPrivate: boolean;
  /** SVC_WEBHOOK_TIMEOUT_MS (D12: 10 s). */
  webhookTimeoutMs: number;
  /** SVC_WEBHOOK_RETRY_SCALE: the retry schedule's multiplier (1 but in test mode). */
  webhookRetryScale: number;
  /** SVC_WEBHOOK_LEASE_MS: one attempt's lease (ADR 0070). */
  webhookLeaseMs: number;
  webhookConcurrency: number;
  webhookConcurrencyPerHost: number;
  webhookConcurrencyPerAccount: number;
  /** SVC_WEBHOOKS_PER_ACCOUNT: webhooks an owner may have at once. */
  webhooksPerAccount: number;
}

export function webhooksConfig(c: z.infer<typeof webhooksEnv>, env: 'test' | 'live'): WebhooksConfig {
  if (env === 'live' && c.SVC_WEBHOOK_RETRY_SCALE !== 1)
    throw invalid(
      'SVC_WEBHOOK_RETRY_SCALE',
      JSON.stringify(String(c.SVC_WEBHOOK_RETRY_SCALE)),
      'a shortened retry schedule is for tests only (SVC_ENV=test)',
    );
  if (c.SVC_WEBHOOK_LEASE_MS < 2 * c.SVC_WEBHOOK_TIMEOUT_MS)
    throw invalid(
      'SVC_WEBHOOK_LEASE_MS',
      JSON.stringify(String(c.SVC_WEBHOOK_LEASE_MS)),
      `expected at least twice SVC_WEBHOOK_TIMEOUT_MS (${c.SVC_WEBHOOK_TIMEOUT_MS}), so a sender never outlasts its attempt's lease`,
    );
  return {
    webhookAllowPrivate: c.SVC_WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookTimeoutMs: c.SVC_WEBHOOK_TIMEOUT_MS,
    webhookRetryScale: c.SVC_WEBHOOK_RETRY_SCALE,
    webhookLeaseMs: c.SVC_WEBHOOK_LEASE_MS,
    webhookConcurrency: c.SVC_WEBHOOK_CONCURRENCY,
    webhookConcurrencyPerHost: c.SVC_WEBHOOK_CONCURRENCY_PER_HOST,
    webhookConcurrencyPerAccount: c.SVC_WEBHOOK_CONCURRENCY_PER_ACCOUNT,
    webhooksPerAccount: c.SVC_WEBHOOKS_PER_ACCOUNT,
  };
}
