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
import { fillText, fillTexts, TEXTS } from './document-texts.js';

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
      note: TEXTS.authentication.status_note,
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
    summary: TEXTS.trust.summary,
    keys: fillTexts(ctx, TEXTS.trust.keys),
    billing: fillTexts(ctx, TEXTS.trust.billing),
    payments: fillTexts(ctx, TEXTS.trust.payments),
    data: fillTexts(ctx, TEXTS.trust.data),
    webhooks: fillTexts(ctx, TEXTS.trust.webhooks),
    limits: { requests_per_minute_per_key: ctx.rateLimitPerMinute, body_limit_bytes: 1024 * 1024 },
    audit: fillText(ctx, TEXTS.trust.audit),
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
