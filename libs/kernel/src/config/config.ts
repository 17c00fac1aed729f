import { z } from 'zod';
import { type BillingConfig, billingConfig, billingEnv } from './billing.config.js';
import { int, invalid, trueOrFalse } from './config-fields.js';
import { type HttpConfig, httpConfig, httpEnv } from './http.config.js';
import { type LimitsConfig, limitsConfig, limitsEnv } from './limits.config.js';
import { type StorageConfig, storageConfig, storageEnv } from './storage.config.js';
import { type WebhooksConfig, webhooksConfig, webhooksEnv } from './webhooks.config.js';

/** What the whole deployment is, apart from the sections below. */
const deploymentEnv = z.object({
  SVC_ENV: z.enum(['test', 'live'], { message: 'expected test or live' }).default('test'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** On a fresh store, create the Team account with an admin key and print the key once (D4). */
  SVC_BOOTSTRAP: trueOrFalse('true'),
  /** On a fresh store, the api imports a deterministic demo set of 5,000 companies (D20). */
  SVC_DEMO_DATA: trueOrFalse('true'),
  /** D9: a run still running this many minutes after its claim fails with code `timeout`. */
  SVC_RUN_TIMEOUT_MINUTES: int(60, 1, 10_080),
});

/**
 * Every environment variable the service reads, with its default, section by section (each
 * section's file holds its variables, its checks across them and its part of AppConfig).
 * README's configuration table mirrors this schema; keep them together.
 */
export const configSchema = z.object({
  ...deploymentEnv.shape,
  ...httpEnv.shape,
  ...storageEnv.shape,
  ...billingEnv.shape,
  ...limitsEnv.shape,
  ...webhooksEnv.shape,
});

export interface AppConfig extends HttpConfig, StorageConfig, BillingConfig, LimitsConfig, WebhooksConfig {
  env: 'test' | 'live';
  logLevel: z.infer<typeof deploymentEnv>['LOG_LEVEL'];
  /** SVC_BOOTSTRAP: the api creates the bootstrap account and admin key on a fresh store (D4). */
  bootstrap: boolean;
  /** SVC_DEMO_DATA: import the demo companies on a fresh store (D20). */
  demoData: boolean;
  /** SVC_RUN_TIMEOUT_MINUTES in ms: a runner's lease on a claimed run. */
  runTimeoutMs: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Variables whose values are secrets. */
const REDACTED = new Set(['SVC_SECRETS_KEY', 'SVC_SECRETS_OLD_KEYS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);

/** Parses the environment; throws ConfigError whose message is one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // Empty strings mean "unset", as in most shells' `VAR= cmd`.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = configSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    // A key's value is never echoed (logs keep start-up errors).
    const shown = REDACTED.has(name) ? '"(redacted)"' : JSON.stringify(env[name] ?? '');
    throw invalid(name, shown, issue.message);
  }
  const c = parsed.data;
  return {
    env: c.SVC_ENV,
    logLevel: c.LOG_LEVEL,
    bootstrap: c.SVC_BOOTSTRAP === 'true',
    demoData: c.SVC_DEMO_DATA === 'true',
    runTimeoutMs: c.SVC_RUN_TIMEOUT_MINUTES * 60_000,
    // Each section checks its own variables against each other (and the deployment's mode).
    ...billingConfig(c, c.SVC_ENV),
    ...webhooksConfig(c, c.SVC_ENV),
    ...httpConfig(c, c.SVC_ENV),
    ...storageConfig(c),
    ...limitsConfig(c),
  };
}
