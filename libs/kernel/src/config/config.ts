import { resolve } from 'node:path';
import { z } from 'zod';
import { parseSecretKey } from '../secrets/secret-box.js';

const int = (def: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'expected an integer' })
    .int({ message: 'expected an integer' })
    .min(min, { message: `expected at least ${min}` })
    .max(max, { message: `expected at most ${max}` })
    .default(def);

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine((v) => protocols.some((p) => v.startsWith(`${p}://`)), {
      message: `expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    });

/**
 * `name=usd,name=usd`: meter price overrides (D17). The syntax is checked here; the meter names
 * by the agent catalogue (agent-contract, `meterPrices`), which owns them.
 */
const meterPricesUsd = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const cents: Record<string, number> = {};
    for (const part of v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)) {
      const m = /^([a-z][a-z_]*(?:\.[a-z_]+)+)\s*=\s*(\d+(?:\.\d{1,2})?)$/.exec(part);
      if (!m) {
        ctx.addIssue({
          code: 'custom',
          message: `expected meter=usd pairs separated by commas (e.g. read.discovery_top=4.00), got "${part}"`,
        });
        return z.NEVER;
      }
      cents[m[1]!] = Math.round(Number(m[2]) * 100);
    }
    return cents;
  });

const isSecretKey = (text: string): boolean => {
  try {
    parseSecretKey(text);
    return true;
  } catch {
    return false;
  }
};

const secretKeyText = z.string().trim().refine(isSecretKey, {
  message: 'expected a 32-byte key: 64 hex digits or 43–44 base64 characters (e.g. `openssl rand -base64 32`)',
});

const secretKeyList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const keys = v
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const bad = keys.findIndex((k) => !isSecretKey(k));
    if (bad >= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `key ${bad + 1}: expected 32 bytes as 64 hex digits or 43–44 base64 characters, separated by commas`,
      });
      return z.NEVER;
    }
    return keys;
  });

/** Host names (no port), comma-separated, lower-cased; `[::1]` and `::1` are the same host. */
const hostList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const hosts = v
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[(.*)\]$/, '$1'),
      )
      .filter(Boolean);
    const bad = hosts.find((h) => !/^[a-z0-9.-]+$|^[0-9a-f:.]+$/.test(h));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `expected host names without port or path, separated by commas, got "${bad}"`,
      });
      return z.NEVER;
    }
    return hosts;
  });

/**
 * Web origins (`scheme://host[:port]`, no path), comma-separated; kept as the browser sends
 * them (the URL's `origin`: lower case, no default port).
 */
const originList = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const origins: string[] = [];
    for (const part of v
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean)) {
      let origin: string | undefined;
      try {
        const parsed = new URL(part);
        const bare = parsed.pathname === '/' && !parsed.search && !parsed.hash && !parsed.username;
        if (bare && /^https?:$/.test(parsed.protocol)) origin = parsed.origin;
      } catch {
        origin = undefined;
      }
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected origins (http(s)://host[:port], no path) separated by commas, got "${part}"`,
        });
        return z.NEVER;
      }
      origins.push(origin);
    }
    return origins;
  });

/** A hop count (`1`) or addresses / CIDR ranges; never "trust everyone". */
const trustedProxies = z
  .string()
  .trim()
  .transform((v, ctx): number | string[] => {
    if (/^\d+$/.test(v)) return Number(v);
    const list = v
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean);
    const bad = list.find((p) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(p));
    if (bad !== undefined || list.length === 0) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a hop count or proxy addresses / CIDR ranges separated by commas${bad ? `, got "${bad}"` : ''}`,
      });
      return z.NEVER;
    }
    return list;
  });

/**
 * Every environment variable the service reads, with its default. README's configuration
 * table mirrors this schema; keep them together.
 */
export const configSchema = z.object({
  PORT: int(3000, 0, 65535),
  HOST: z.string().min(1).default('0.0.0.0'),
  SVC_DATA_DIR: z.string().min(1).default('./data'),
  SVC_ENV: z.enum(['test', 'live'], { message: 'expected test or live' }).default('test'),
  EVENTSTORE_URL: url(['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover']).optional(),
  MONGODB_URL: url(['mongodb', 'mongodb+srv']).optional(),
  MONGODB_DATABASE: z.string().min(1).default('svc'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SVC_PUBLIC_URL: url(['http', 'https']).optional(),
  /** Without SVC_PUBLIC_URL (test mode only), the Host names links may be built from. */
  SVC_ALLOWED_HOSTS: hostList.optional(),
  /** Where people and registries write about the service (the public descriptors and legal page). */
  SVC_CONTACT_EMAIL: z.email({ message: 'expected an email address' }).optional(),
  /** Mail for password reset links (smtp://user:pass@host:port, smtps:// for TLS); unset = no mail. */
  SVC_SMTP_URL: url(['smtp', 'smtps']).optional(),
  SVC_SMTP_FROM: z.email({ message: 'expected an email address' }).optional(),
  /** HTTP server limits: a request must arrive whole, and its headers, within these. */
  SVC_HTTP_REQUEST_TIMEOUT_MS: int(30_000, 1000, 600_000),
  SVC_HTTP_HEADERS_TIMEOUT_MS: int(10_000, 100, 600_000),
  /**
   * An idle keep-alive connection is closed after this (advertised as `Keep-Alive: timeout=N`).
   * Longer than the 60–75 s proxies and client pools keep theirs, as Fastify's own default: a
   * client that closes later than the server writes into a closed socket (ADR 0077).
   */
  SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS: int(72_000, 100, 600_000),
  /** A connection with no traffic at all is closed after this. */
  SVC_HTTP_IDLE_TIMEOUT_MS: int(60_000, 1000, 3_600_000),
  /** Run projections (and later the dispatcher) inside the API process. Default: only when embedded. */
  SVC_RUN_PROJECTIONS: z.enum(['true', 'false', 'auto']).default('auto'),
  SVC_READ_YOUR_WRITES_TIMEOUT_MS: int(5000, 0, 60000),
  /** On a fresh store, create the Team account with an admin key and print the key once (D4). */
  SVC_BOOTSTRAP: z.enum(['true', 'false'], { message: 'expected true or false' }).default('true'),
  SVC_METER_PRICES_USD: meterPricesUsd.optional(),
  /** Stripe (D16): set to take real payments; unset = the offline sandbox provider. */
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, {
      message: 'expected a Stripe secret key (sk_test_…, sk_live_…, rk_…)',
    })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  /** Another Stripe API host (stripe-mock, a local stand-in): protocol, host and port are used. */
  STRIPE_API_URL: url(['http', 'https']).optional(),
  /** D19: autopay tops up when a charge leaves the balance under this many USD. */
  SVC_AUTOPAY_THRESHOLD_USD: z.coerce
    .number({ message: 'expected a number of USD' })
    .min(0, { message: 'expected at least 0' })
    .max(1_000_000, { message: 'expected at most 1000000' })
    .default(10),
  /** Anonymous writes (OWASP API4): accounts made per client address per hour, other writes per minute. */
  SVC_SIGNUP_LIMIT_PER_HOUR: int(30, 1, 1_000_000),
  SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: int(60, 1, 1_000_000),
  /** Sign-in attempts (POST /login) per client address per minute, apart from the writes above. */
  SVC_SIGN_IN_LIMIT_PER_MINUTE: int(30, 1, 1_000_000),
  /** All anonymous writes of all addresses together, per minute (a ceiling for spread-out floods). */
  SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: int(1200, 1, 100_000_000),
  /** POSTs to /oauth/token and /oauth/revoke per client address per minute (client secret guessing). */
  SVC_OAUTH_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** Requests to /oauth/authorize[/:uid] and /oauth/interaction/… per client address per minute. */
  SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** MCP messages without a key per client address per minute (each message of a batch counts). */
  SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: int(300, 1, 1_000_000),
  /** JSON-RPC messages one MCP batch may hold (protocol versions before 2025-06-18 only). */
  SVC_MCP_MAX_BATCH: int(20, 1, 100),
  /** Browser origins besides SVC_PUBLIC_URL's that may call the MCP endpoint. */
  SVC_MCP_ALLOWED_ORIGINS: originList.optional(),
  /** Proxies whose X-Forwarded-For is believed: a hop count, or addresses/CIDRs comma-separated. */
  SVC_TRUSTED_PROXIES: trustedProxies.optional(),
  /** D7: requests per minute allowed to one agent key on /api/v1. */
  SVC_AGENT_RATE_LIMIT_PER_MINUTE: int(600, 1, 1_000_000_000),
  /** Documents held by the read cache per projection that this process runs (0 = no read cache). */
  SVC_READ_CACHE_DOCUMENTS: int(10_000, 0, 1_000_000),
  /** On a fresh store, the api imports a deterministic demo set of 5,000 companies (D20). */
  SVC_DEMO_DATA: z.enum(['true', 'false'], { message: 'expected true or false' }).default('true'),
  /** D14: lift the SSRF guard so webhooks may target loopback and private addresses (local use, tests). */
  SVC_WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false'], { message: 'expected true or false' }).default('false'),
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
  /** D9: a run still running this many minutes after its claim fails with code `timeout`. */
  SVC_RUN_TIMEOUT_MINUTES: int(60, 1, 10_080),
  /** Ownership of background jobs across processes (ADR 0067): lease time, renewal, standby's look. */
  SVC_OWNERSHIP_LEASE_MS: int(6000, 1000, 600_000),
  SVC_OWNERSHIP_RENEW_MS: int(2000, 100, 300_000),
  SVC_OWNERSHIP_STANDBY_CHECK_MS: int(1000, 50, 60_000),
  /** The worker answers GET /health on this port (0 = any free port); unset = no health server. */
  SVC_WORKER_HEALTH_PORT: z.coerce
    .number({ message: 'expected an integer' })
    .int({ message: 'expected an integer' })
    .min(0, { message: 'expected at least 0' })
    .max(65535, { message: 'expected at most 65535' })
    .optional(),
  /** Encrypts webhook signing secrets at rest; unset = a key made in SVC_DATA_DIR/secrets.key. */
  SVC_SECRETS_KEY: secretKeyText.optional(),
  /** Previous SVC_SECRETS_KEY values, comma-separated: they open what they sealed (rotation). */
  SVC_SECRETS_OLD_KEYS: secretKeyList.optional(),
});

type Raw = z.infer<typeof configSchema>;

export interface AppConfig {
  port: number;
  host: string;
  dataDir: string;
  env: 'test' | 'live';
  eventStoreUrl?: string;
  mongoUrl?: string;
  mongoDatabase: string;
  logLevel: Raw['LOG_LEVEL'];
  publicUrl?: string;
  /** SVC_ALLOWED_HOSTS: Host names trusted for links when publicUrl is unset (test mode only). */
  allowedHosts: string[];
  /** SVC_CONTACT_EMAIL: the contact the public descriptors name; unset = a placeholder. */
  contactEmail?: string;
  /** SVC_SMTP_URL / SVC_SMTP_FROM: where password reset mails go out; unset = no mail (the CLI issues links). */
  smtp?: { url: string; from: string };
  /** The HTTP server's limits (slow or idle clients are cut off). */
  http: HttpServerLimits;
  runProjections: boolean;
  readYourWritesTimeoutMs: number;
  /** SVC_BOOTSTRAP: the api creates the bootstrap account and admin key on a fresh store (D4). */
  bootstrap: boolean;
  /** Meter price overrides in cents by meter name (SVC_METER_PRICES_USD); empty = D17 defaults. */
  meterPricesCents: Record<string, number>;
  /** STRIPE_SECRET_KEY: payments through Stripe; unset = the sandbox provider (D16). */
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  stripeApiUrl?: string;
  /** SVC_AUTOPAY_THRESHOLD_USD in cents (D19). */
  autopayThresholdCents: number;
  /** Limits on anonymous writes per client address (and all together), OWASP API4. */
  anonymousLimits: {
    signupsPerHour: number;
    writesPerMinute: number;
    signInsPerMinute: number;
    globalPerMinute: number;
  };
  /** SVC_OAUTH_LIMIT_PER_MINUTE: token and revocation requests per client address per minute. */
  oauthLimitPerMinute: number;
  /** SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: authorization and consent requests per client address per minute. */
  oauthAuthorizeLimitPerMinute: number;
  /** The MCP endpoint's own limits (ADR 0074). */
  mcp: McpLimits;
  /** SVC_TRUSTED_PROXIES: whose X-Forwarded-For gives the client address; unset = the socket's. */
  trustedProxies?: number | string[];
  /** SVC_AGENT_RATE_LIMIT_PER_MINUTE (D7: 600). */
  agentRateLimitPerMinute: number;
  /** SVC_READ_CACHE_DOCUMENTS: documents held by the read cache per locally run projection (0 = off). */
  readCacheDocuments: number;
  /** SVC_DEMO_DATA: import the demo companies on a fresh store (D20). */
  demoData: boolean;
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
  /** SVC_RUN_TIMEOUT_MINUTES in ms: a runner's lease on a claimed run. */
  runTimeoutMs: number;
  /** Leases of background jobs (ADR 0067), in ms. */
  ownership: { leaseMs: number; renewMs: number; standbyCheckMs: number };
  /** SVC_WORKER_HEALTH_PORT: the worker's health server; unset = none. */
  workerHealthPort?: number;
  /** SVC_SECRETS_KEY: the key sealing secrets at rest; unset = `{dataDir}/secrets.key`. */
  secretsKey?: string;
  /** SVC_SECRETS_OLD_KEYS: earlier keys, used only to open what they sealed. */
  secretsOldKeys: string[];
}

export interface McpLimits {
  /** SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: messages without a key per client address per minute. */
  anonymousPerMinute: number;
  /** SVC_MCP_MAX_BATCH: messages in one JSON-RPC batch. */
  maxBatch: number;
  /** SVC_MCP_ALLOWED_ORIGINS: browser origins accepted besides the service's own. */
  allowedOrigins: string[];
}

export interface HttpServerLimits {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  idleTimeoutMs: number;
  /** Bytes of request line and headers at most (Node's default, stated). */
  maxHeaderBytes: number;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

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
    throw new ConfigError(`Invalid configuration: ${name}=${shown}: ${issue.message}`);
  }
  const c = parsed.data;
  // D16: the sandbox takes test keys only, and a deployment's keys and payments agree on live/test.
  const stripeMode = c.STRIPE_SECRET_KEY ? (c.STRIPE_SECRET_KEY.includes('_live_') ? 'live' : 'test') : undefined;
  if (c.SVC_ENV === 'live' && stripeMode !== 'live') {
    throw new ConfigError(
      `Invalid configuration: STRIPE_SECRET_KEY=${JSON.stringify(stripeMode ? 'sk_test_…' : '')}: SVC_ENV=live needs a live Stripe key (the sandbox provider serves test keys only)`,
    );
  }
  if (c.SVC_ENV === 'test' && stripeMode === 'live') {
    throw new ConfigError(
      'Invalid configuration: STRIPE_SECRET_KEY="sk_live_…": a live Stripe key needs SVC_ENV=live (test keys must never move real money)',
    );
  }
  if (c.SVC_ENV === 'live' && c.SVC_WEBHOOK_RETRY_SCALE !== 1) {
    throw new ConfigError(
      `Invalid configuration: SVC_WEBHOOK_RETRY_SCALE=${JSON.stringify(String(c.SVC_WEBHOOK_RETRY_SCALE))}: a shortened retry schedule is for tests only (SVC_ENV=test)`,
    );
  }
  if (c.SVC_WEBHOOK_LEASE_MS < 2 * c.SVC_WEBHOOK_TIMEOUT_MS) {
    throw new ConfigError(
      `Invalid configuration: SVC_WEBHOOK_LEASE_MS=${JSON.stringify(String(c.SVC_WEBHOOK_LEASE_MS))}: expected at least twice SVC_WEBHOOK_TIMEOUT_MS (${c.SVC_WEBHOOK_TIMEOUT_MS}), so a sender never outlasts its attempt's lease`,
    );
  }
  if (c.SVC_ENV === 'live' && !c.SVC_PUBLIC_URL) {
    throw new ConfigError(
      'Invalid configuration: SVC_PUBLIC_URL="": SVC_ENV=live needs the public base URL (checkout return links and descriptors must never be built from a request\'s Host header)',
    );
  }
  if (c.SVC_ENV === 'live' && c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: STRIPE_WEBHOOK_SECRET="": SVC_ENV=live with Stripe needs the webhook signing secret (without it, paid checkouts are never credited)',
    );
  }
  if (c.SVC_HTTP_HEADERS_TIMEOUT_MS > c.SVC_HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      `Invalid configuration: SVC_HTTP_HEADERS_TIMEOUT_MS=${JSON.stringify(String(c.SVC_HTTP_HEADERS_TIMEOUT_MS))}: expected at most SVC_HTTP_REQUEST_TIMEOUT_MS (${c.SVC_HTTP_REQUEST_TIMEOUT_MS})`,
    );
  }
  if (c.SVC_OWNERSHIP_RENEW_MS * 2 > c.SVC_OWNERSHIP_LEASE_MS) {
    throw new ConfigError(
      `Invalid configuration: SVC_OWNERSHIP_RENEW_MS=${JSON.stringify(String(c.SVC_OWNERSHIP_RENEW_MS))}: expected at most half of SVC_OWNERSHIP_LEASE_MS (${c.SVC_OWNERSHIP_LEASE_MS}), so a missed renewal is retried before the lease runs out`,
    );
  }
  const embedded = !c.EVENTSTORE_URL && !c.MONGODB_URL;
  return {
    port: c.PORT,
    host: c.HOST,
    dataDir: resolve(c.SVC_DATA_DIR),
    env: c.SVC_ENV,
    eventStoreUrl: c.EVENTSTORE_URL,
    mongoUrl: c.MONGODB_URL,
    mongoDatabase: c.MONGODB_DATABASE,
    logLevel: c.LOG_LEVEL,
    publicUrl: c.SVC_PUBLIC_URL?.replace(/\/+$/, ''),
    allowedHosts: c.SVC_ALLOWED_HOSTS ?? defaultAllowedHosts(c.HOST),
    contactEmail: c.SVC_CONTACT_EMAIL,
    ...(c.SVC_SMTP_URL ? { smtp: { url: c.SVC_SMTP_URL, from: c.SVC_SMTP_FROM ?? 'no-reply@localhost' } } : {}),
    http: {
      requestTimeoutMs: c.SVC_HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: c.SVC_HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: c.SVC_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      idleTimeoutMs: c.SVC_HTTP_IDLE_TIMEOUT_MS,
      maxHeaderBytes: 16_384,
    },
    runProjections: c.SVC_RUN_PROJECTIONS === 'auto' ? embedded : c.SVC_RUN_PROJECTIONS === 'true',
    readYourWritesTimeoutMs: c.SVC_READ_YOUR_WRITES_TIMEOUT_MS,
    bootstrap: c.SVC_BOOTSTRAP === 'true',
    meterPricesCents: c.SVC_METER_PRICES_USD ?? {},
    stripeSecretKey: c.STRIPE_SECRET_KEY,
    stripeWebhookSecret: c.STRIPE_WEBHOOK_SECRET,
    stripeApiUrl: c.STRIPE_API_URL?.replace(/\/+$/, ''),
    autopayThresholdCents: Math.round(c.SVC_AUTOPAY_THRESHOLD_USD * 100),
    agentRateLimitPerMinute: c.SVC_AGENT_RATE_LIMIT_PER_MINUTE,
    anonymousLimits: {
      signupsPerHour: c.SVC_SIGNUP_LIMIT_PER_HOUR,
      writesPerMinute: c.SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE,
      signInsPerMinute: c.SVC_SIGN_IN_LIMIT_PER_MINUTE,
      globalPerMinute: c.SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE,
    },
    oauthLimitPerMinute: c.SVC_OAUTH_LIMIT_PER_MINUTE,
    oauthAuthorizeLimitPerMinute: c.SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE,
    mcp: {
      anonymousPerMinute: c.SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE,
      maxBatch: c.SVC_MCP_MAX_BATCH,
      allowedOrigins: c.SVC_MCP_ALLOWED_ORIGINS ?? [],
    },
    trustedProxies: c.SVC_TRUSTED_PROXIES,
    readCacheDocuments: c.SVC_READ_CACHE_DOCUMENTS,
    demoData: c.SVC_DEMO_DATA === 'true',
    webhookAllowPrivate: c.SVC_WEBHOOK_ALLOW_PRIVATE === 'true',
    webhookTimeoutMs: c.SVC_WEBHOOK_TIMEOUT_MS,
    webhookRetryScale: c.SVC_WEBHOOK_RETRY_SCALE,
    webhookLeaseMs: c.SVC_WEBHOOK_LEASE_MS,
    webhookConcurrency: c.SVC_WEBHOOK_CONCURRENCY,
    webhookConcurrencyPerHost: c.SVC_WEBHOOK_CONCURRENCY_PER_HOST,
    webhookConcurrencyPerAccount: c.SVC_WEBHOOK_CONCURRENCY_PER_ACCOUNT,
    webhooksPerAccount: c.SVC_WEBHOOKS_PER_ACCOUNT,
    runTimeoutMs: c.SVC_RUN_TIMEOUT_MINUTES * 60_000,
    ownership: {
      leaseMs: c.SVC_OWNERSHIP_LEASE_MS,
      renewMs: c.SVC_OWNERSHIP_RENEW_MS,
      standbyCheckMs: c.SVC_OWNERSHIP_STANDBY_CHECK_MS,
    },
    workerHealthPort: c.SVC_WORKER_HEALTH_PORT,
    secretsKey: c.SVC_SECRETS_KEY,
    secretsOldKeys: c.SVC_SECRETS_OLD_KEYS ?? [],
  };
}

/** Loopback names, and the listening address when it is one (not a wildcard). */
export function defaultAllowedHosts(listenHost: string): string[] {
  const hosts = ['localhost', '127.0.0.1', '::1'];
  const own = listenHost.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (own !== '0.0.0.0' && own !== '::' && !hosts.includes(own)) hosts.push(own);
  return hosts;
}

/**
 * Settings that work but put something at risk: the process starts and logs each loudly.
 * (The same settings in live mode are refused by loadConfig.)
 */
export function configWarnings(config: Pick<AppConfig, 'stripeSecretKey' | 'stripeWebhookSecret'>): string[] {
  const warnings: string[] = [];
  if (config.stripeSecretKey && !config.stripeWebhookSecret) {
    warnings.push(
      'STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: Stripe checkouts will be paid but never credited (POST /api/v1/billing/webhooks/stripe answers 503). Set STRIPE_WEBHOOK_SECRET.',
    );
  }
  return warnings;
}
