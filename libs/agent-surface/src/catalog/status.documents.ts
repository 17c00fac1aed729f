/**
 * The service's state and guarantees: GET /api/v1/agents/status (public part; the accounts
 * feature adds the keyed part) and GET /api/v1/agents/trust. Both state the configured rate limit.
 */
import { z } from 'zod';
import {
  type CatalogContext,
  CREDIT_PACKS,
  DESCRIPTOR_PATHS,
  endpointUrl,
  envelopeSchema,
  METER_NAMES,
  PACK_IDS,
} from '#agent-contract';
import { packId, strings, url, usd } from './catalog.schemas.js';
import { authEntry, authentication, meterEntries, meterEntry, SERVICE_NAME } from './information.parts.js';
import { centsToUsd } from '#kernel';

// ---------------------------------------------------------------- status (public part)

export interface StatusInput {
  /** Both stores answered a ping. */
  storesUp: boolean;
}

export function buildPublicStatus(ctx: CatalogContext, input: StatusInput) {
  return {
    service: SERVICE_NAME,
    status: input.storesUp ? ('operational' as const) : ('degraded' as const),
    api_version: 'v1' as const,
    environment: ctx.env,
    authenticated: false,
    meters: meterEntries(ctx),
    packs: CREDIT_PACKS.map((p) => ({
      pack_id: p.pack_id,
      name: p.name,
      amount_usd: centsToUsd(p.amount_cents),
      credits_usd: centsToUsd(p.credits_cents),
    })),
    rate_limit: { requests_per_minute_per_key: ctx.rateLimitPerMinute },
    authentication: {
      ...authentication(ctx),
      note: 'Send your key to this endpoint to see the account, balance_usd, recent ledger entries (ledger_url: the whole ledger), autopay state and workspace (the tenant workspace a paid pack_2499 or pack_10000 opened: plan, pilot end, read-only or not).',
    },
    links: {
      catalog: endpointUrl(ctx, 'catalog'),
      quickstart: endpointUrl(ctx, 'quickstart'),
      pay: endpointUrl(ctx, 'pay'),
      errors: endpointUrl(ctx, 'errors'),
      health: `${ctx.baseUrl}/health`,
      openapi: `${ctx.baseUrl}${DESCRIPTOR_PATHS.openapi}`,
    },
  };
}

/** The public status; the keyed form adds the account fields (open: they come from the accounts feature). */
export const statusSchema = envelopeSchema(
  z.looseObject({
    service: z.string(),
    status: z.enum(['operational', 'degraded']),
    api_version: z.literal('v1'),
    environment: z.enum(['test', 'live']),
    authenticated: z.boolean(),
    meters: z.array(meterEntry).length(METER_NAMES.length),
    packs: z
      .array(z.strictObject({ pack_id: packId, name: z.string(), amount_usd: usd, credits_usd: usd }))
      .length(PACK_IDS.length),
    rate_limit: z.strictObject({ requests_per_minute_per_key: z.int() }),
    authentication: authEntry.extend({ note: z.string() }),
    links: z.record(z.string(), url),
  }),
  'AgentStatus',
);

// ---------------------------------------------------------------- trust

export function buildTrust(ctx: CatalogContext) {
  return {
    summary: 'What the service guarantees about keys, money, payments, data and deliveries.',
    keys: [
      `Keys look like svc_${ctx.env}_ + 32 random base62 characters + a 6-character checksum; a key of the other environment is refused.`,
      'Only the SHA-256 hash of a key is stored; the value is shown once, at issue.',
      'A key works only on the surface that issued it.',
      `Rotate without downtime: create a key at ${endpointUrl(ctx, 'create_key')}, switch, revoke the old one.`,
    ],
    billing: [
      'Amounts are kept in integer cents; no rounding drift.',
      'A call is charged only when it succeeds, and the charge is durable before the data is sent.',
      'Concurrent calls on one account never overspend; 402 is answered instead and nothing is charged.',
      'The credits ledger is event-sourced: every purchase and charge is an event and the balance can be replayed.',
    ],
    payments: [
      'Hosted checkout: card data never passes through this API.',
      'Provider webhooks are verified by signature over the raw body; fulfilment is idempotent by checkout session.',
      'Test deployments use a sandbox checkout served by the service itself.',
    ],
    data: [
      'Scores are 0-100 with named components and a model version (a transparent, documented model).',
      'Enterprise workspaces are isolated per tenant; tenant-bound keys see only their tenant.',
    ],
    webhooks: [
      'Deliveries are signed: X-Service-Signature: sha256=<hex HMAC-SHA256 of the body with your secret>.',
      'Failed deliveries are retried at +1 min, +5 min, +30 min and +2 h; only delivered events are charged.',
    ],
    limits: { requests_per_minute_per_key: ctx.rateLimitPerMinute, body_limit_bytes: 1024 * 1024 },
    audit: `GET ${endpointUrl(ctx, 'status')} with your key lists recent ledger entries; GET ${endpointUrl(ctx, 'ledger')} pages through all of them, oldest first, with the balance after each.`,
  };
}

export const trustSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    keys: strings.min(1),
    billing: strings.min(1),
    payments: strings.min(1),
    data: strings.min(1),
    webhooks: strings.min(1),
    limits: z.strictObject({ requests_per_minute_per_key: z.int(), body_limit_bytes: z.int() }),
    audit: z.string(),
  }),
  'AgentTrust',
);
