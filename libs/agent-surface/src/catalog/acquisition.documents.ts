/**
 * How agents get here and get access: GET /api/v1/agents/acquisition (flows, check call,
 * attribution) and /agents/traffic (referral links, rate limits, discovery documents).
 */
import { z } from 'zod';
import {
  type CatalogContext,
  CREDIT_PACKS,
  endpointUrl,
  envelopeSchema,
  MCP_TOOLS,
  OBJECTIVE_PACK,
  OBJECTIVES,
  PACK_IDS,
  PACK_OBJECTIVE,
  packCheckoutUrl,
  RECOMMENDED_OBJECTIVE,
  REGISTRY_TARGETS,
  toolStatus,
} from '#agent-contract';
import { objective, packId, strings, url } from './catalog.schemas.js';
import {
  attribution,
  attributionParameters,
  descriptorMaps,
  descriptors,
  flow,
  flowEntry,
  paymentFlows,
} from './information.parts.js';
import { fillTexts, TEXTS } from './document-texts.js';

// ---------------------------------------------------------------- acquisition

export function buildAcquisition(ctx: CatalogContext) {
  return {
    summary: TEXTS.acquisition.summary,
    flows: [
      ...paymentFlows(ctx),
      ...TEXTS.acquisition_flows.map((f) =>
        'tool' in f
          ? {
              key: f.key,
              name: f.name,
              status: toolStatus(MCP_TOOLS.find((t) => t.name === f.tool)!),
              steps: fillTexts(ctx, f.steps),
            }
          : flowEntry(ctx, f),
      ),
    ],
    check_call: {
      method: 'GET',
      url: `${endpointUrl(ctx, 'pay_check')}?objective=starter`,
      meaning: TEXTS.acquisition.check_call,
    },
    objectives: OBJECTIVES.map((o) => ({ objective: o, pack_id: OBJECTIVE_PACK[o] })),
    recommended_objective: RECOMMENDED_OBJECTIVE,
    attribution: attributionParameters(ctx),
    idempotency: TEXTS.acquisition.idempotency,
  };
}

export const acquisitionSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    flows: z.array(flow).min(1),
    check_call: z.strictObject({ method: z.literal('GET'), url, meaning: z.string() }),
    objectives: z.array(z.strictObject({ objective, pack_id: packId })).length(OBJECTIVES.length),
    recommended_objective: z.literal('starter_proof'),
    attribution,
    idempotency: z.string(),
  }),
  'AgentAcquisition',
);

// ---------------------------------------------------------------- traffic

export function buildTraffic(ctx: CatalogContext) {
  return {
    summary: TEXTS.traffic.summary,
    attribution: attributionParameters(ctx),
    referral_links: CREDIT_PACKS.map((p) => ({
      pack_id: p.pack_id,
      url: packCheckoutUrl(ctx, { objective: PACK_OBJECTIVE[p.pack_id], pack_id: p.pack_id, source: 'your-ref' }),
    })),
    pay_link: `${endpointUrl(ctx, 'pay')}?objective=starter&source=your-ref`,
    rate_limits: {
      requests_per_minute_per_key: ctx.rateLimitPerMinute,
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      on_limit: TEXTS.traffic.on_limit,
    },
    ...descriptorMaps(ctx, 'discovery_documents'),
    registry_packs: REGISTRY_TARGETS.map((t) => ({ target: t, url: `${endpointUrl(ctx, 'registry_pack')}/${t}` })),
  };
}

export const trafficSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    attribution,
    referral_links: z.array(z.strictObject({ pack_id: packId, url })).length(PACK_IDS.length),
    pay_link: url,
    rate_limits: z.strictObject({ requests_per_minute_per_key: z.int(), headers: strings, on_limit: z.string() }),
    discovery_documents: descriptors,
    planned_discovery_documents: descriptors.optional(),
    registry_packs: z.array(z.strictObject({ target: z.enum(REGISTRY_TARGETS), url })).length(REGISTRY_TARGETS.length),
  }),
  'AgentTraffic',
);
