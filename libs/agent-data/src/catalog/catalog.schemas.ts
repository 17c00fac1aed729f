/**
 * Zod schemas of the catalogue documents (OpenAPI response schemas, and the tests parse every
 * answer with them) and of the requests (strict: unknown fields and parameters are refused).
 */
import { z } from 'zod';
import { REGISTRY_TARGETS } from './agent-surface.js';
import { SEGMENTS } from './guidance.document.js';
import { METER_NAMES } from './meters.js';
import { OBJECTIVE_VALUES, OBJECTIVES } from './objectives.js';
import { PACK_IDS } from './packs.js';
import { REVENUE_TIER_KEYS, SERVICE_KEYS } from './services.js';

const url = z.url();
const usd = z.number().min(0);
const packId = z.enum(PACK_IDS);
const objective = z.enum(OBJECTIVES);
const meter = z.enum(METER_NAMES);
const strings = z.array(z.string().min(1));
/** Whether a route is served today (agent-surface.ts, RouteStatus). */
const routeStatus = z.enum(['available', 'planned']);

/** `{version: "v1", as_of, data}` (spec "Response envelope"). */
export function envelopeSchema<T extends z.ZodType>(data: T, id?: string) {
  const schema = z.strictObject({ version: z.literal('v1'), as_of: z.iso.datetime(), data });
  return id ? schema.meta({ id }) : schema;
}

// ------------------------------------------------------------------ catalog

const payBody = z.strictObject({
  objective,
  pack_id: packId,
  agent_name: z.string().optional(),
  use_case: z.string().optional(),
  contact_email: z.email().optional(),
  source_ref: z.string(),
});

const purchasePath = z.strictObject({ endpoint: url, method: z.literal('POST'), pack_id: packId, request_body_template: payBody });

export const catalogPackEntrySchema = z
  .strictObject({
    pack_id: packId,
    name: z.string(),
    amount_usd: usd,
    base_credits_usd: usd,
    payment_link: z.null(),
    checkout_redirect_url: url,
    offers: z.array(z.never()),
    recommendation: z.strictObject({ fastest_revenue: z.boolean(), twenty_four_seven: z.boolean(), operator_pilot: z.boolean(), enterprise: z.boolean() }),
    capabilities: z.array(z.enum(['entry-access', 'quickstart', 'proof-workloads', 'production-usage', 'autopay', 'continuous-discovery'])),
  })
  .meta({ id: 'AgentCatalogPack' });

export const serviceCatalogEntrySchema = z
  .strictObject({
    key: z.enum(SERVICE_KEYS),
    name: z.string(),
    access: z.enum(['self_serve', 'enterprise']),
    revenue_priority: z.enum(['now', 'expansion', 'enterprise']),
    pricing_model: z.enum(['prepaid_per_call', 'prepaid_per_event', 'enterprise_commit']),
    outcome: z.string(),
    primary_meters: z.array(meter),
    estimated_default_cost_usd: usd,
    included_endpoints: strings,
    included_mcp_methods: strings,
    buy_now_url: url,
    upgrade_url: url.optional(),
    includes: strings,
    /** planned when one of its endpoints is not served yet. */
    status: routeStatus,
    /** The included endpoints that are not served yet (absent: none). */
    planned_endpoints: strings.min(1).optional(),
    /** The included MCP tools that cannot be called yet (absent: none). */
    planned_mcp_methods: strings.min(1).optional(),
  })
  .meta({ id: 'AgentServiceCatalogEntry' });

export const revenueTierSchema = z
  .strictObject({
    key: z.enum(REVENUE_TIER_KEYS),
    name: z.string(),
    buyer: z.string(),
    pricing_model: z.string(),
    best_for: z.string(),
    primary_service_keys: z.array(z.enum(SERVICE_KEYS)),
    buy_now_url: url,
    included: strings,
  })
  .meta({ id: 'AgentRevenueTier' });

const enterpriseUpgrade = z.strictObject({ objective: z.literal('enterprise'), pack_id: packId, checkout_redirect_url: url, page_url: url });

export const catalogSchema = envelopeSchema(
  z.strictObject({
    catalog: z.array(catalogPackEntrySchema),
    call_to_action: z.string().min(1),
    fastest_revenue_path: purchasePath,
    operator_pilot_path: purchasePath,
    service_catalog: z.array(serviceCatalogEntrySchema),
    revenue_tiers: z.array(revenueTierSchema),
    enterprise_upgrade: enterpriseUpgrade,
  }),
  'AgentCatalog',
);

// ------------------------------------------------------------------ guidance

const pathLink = z.strictObject({ objective, pack_id: packId, checkout_redirect_url: url });

export const guidanceOptionSchema = z
  .strictObject({
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    effective_credits_usd: usd,
    checkout_url: url.nullable(),
    checkout_redirect_url: url,
    offer_code: z.string().nullable(),
    preferred_for_objective: z.boolean(),
  })
  .meta({ id: 'AgentPurchaseOption' });

export const packValueSchema = z
  .strictObject({
    pack_id: packId,
    amount_usd: usd,
    credits_usd: usd,
    bonus_usd: usd,
    calls_covered: z.record(meter, z.int().min(0)),
    workflows_covered: z.record(z.string(), z.int().min(0)),
  })
  .meta({ id: 'AgentPackValue' });

export const guidanceSchema = envelopeSchema(
  z.strictObject({
    objective: z.string(),
    segment: z.enum(SEGMENTS),
    recommended_objective: z.literal('starter_proof'),
    aggressive: z.boolean(),
    message: z.string().min(1),
    why_buy_now: strings.min(1),
    options: z.array(guidanceOptionSchema),
    primary_buy_now: z.strictObject({ endpoint: url, method: z.literal('POST'), note: z.string(), pack_id: packId, amount_usd: usd, offer_code: z.string().nullable() }),
    selected_pack_value: packValueSchema,
    fastest_revenue_path: payBody,
    operator_pilot_payload_template: payBody,
    twenty_four_seven_path: pathLink,
    operator_pilot_path: pathLink.extend({ duration_days: z.int() }),
    enterprise_upgrade: enterpriseUpgrade,
    /** The operations served today, by name. */
    endpoints: z.record(z.string(), url),
    /** Operations of the spec not served yet, by name (absent: none). */
    planned_endpoints: z.record(z.string(), url).optional(),
    payment_flow: strings.min(1),
  }),
  'AgentPurchaseGuidance',
);

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
const keyId = z.string().regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)');
const source = z.string().regex(/^[A-Za-z0-9._~-]{1,64}$/, 'expected 1 to 64 characters of A-Z a-z 0-9 . _ ~ -');

export const quoteQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  segment: z.enum(SEGMENTS).optional(),
  pack_id: packId.optional(),
  source: source.optional(),
  key_id: keyId.optional(),
});

export const recommendTierQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  segment: z.enum(SEGMENTS).optional(),
  aggressive: bool.optional(),
  source: source.optional(),
  key_id: keyId.optional(),
});

export const noQuery = z.object({});

// ------------------------------------------------------------------ information documents

const meterEntry = z.strictObject({ meter, price_usd: usd, description: z.string(), charged_on: z.string(), access: z.enum(['self_serve', 'enterprise']), status: routeStatus });
const meterPrice = z.strictObject({ meter, price_usd: usd });
const authEntry = z.strictObject({ header: z.literal('x-api-key'), alternative: z.string(), key_prefix: z.string(), issued_by: z.array(url), rotation: url, enterprise: z.string() });
const operation = z.strictObject({
  name: z.string(),
  method: z.enum(['GET', 'POST', 'PATCH', 'DELETE']),
  url,
  group: z.enum(['onboarding', 'billing', 'information', 'data', 'workspace', 'mcp']),
  auth: z.enum(['none', 'key', 'key_optional', 'tenant_key']),
  summary: z.string(),
  meter: meter.nullable(),
  price_usd: usd.nullable(),
  status: routeStatus,
});
const descriptors = z.record(z.string(), url);
const flow = z.strictObject({ key: z.string(), name: z.string(), status: routeStatus, steps: strings.min(1) });
const workflow = z.strictObject({
  key: z.string(),
  name: z.string(),
  access: z.enum(['self_serve', 'enterprise']),
  meters: z.array(meter).min(1),
  estimated_default_cost_usd: usd,
  estimated_cost_usd: usd,
  steps_mode: z.enum(['sequence', 'any_one']),
  steps: z.array(z.strictObject({ method: z.string(), url, mcp_tool: z.string().nullable(), meter: meter.nullable(), price_usd: usd.nullable(), status: routeStatus })).min(1),
  /** planned when one of its steps is. */
  status: routeStatus,
});
const attribution = z.array(z.strictObject({ name: z.string(), where: z.string(), meaning: z.string() })).min(1);

/** The public status; the keyed form adds the account fields (open: they come from the accounts feature). */
export const statusSchema = envelopeSchema(
  z.looseObject({
    service: z.string(),
    status: z.enum(['operational', 'degraded']),
    api_version: z.literal('v1'),
    environment: z.enum(['test', 'live']),
    authenticated: z.boolean(),
    meters: z.array(meterEntry).length(METER_NAMES.length),
    packs: z.array(z.strictObject({ pack_id: packId, name: z.string(), amount_usd: usd, credits_usd: usd })).length(PACK_IDS.length),
    rate_limit: z.strictObject({ requests_per_minute_per_key: z.int() }),
    authentication: authEntry.extend({ note: z.string() }),
    links: z.record(z.string(), url),
  }),
  'AgentStatus',
);

export const valueProofSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    proof_run: z.strictObject({
      pack_id: packId,
      steps: z.array(z.strictObject({ action: z.string(), method: z.string(), url: z.string(), meter: z.string(), price_usd: usd })).min(1),
      cost_usd: usd,
      credits_left_usd: z.number(),
    }),
    packs: z.array(packValueSchema).length(PACK_IDS.length),
    workflows: z.array(workflow.omit({ steps: true })).min(1),
    guarantees: strings.min(1),
    verify: z.array(z.strictObject({ what: z.string(), how: z.string() })).min(1),
  }),
  'AgentValueProof',
);

export const capabilitiesSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    operations: z.array(operation).min(1),
    mcp: z.strictObject({
      endpoint: url,
      status: routeStatus,
      tools: z
        .array(z.strictObject({ name: z.string(), description: z.string(), equivalent: z.string(), auth: z.string(), meter: meter.nullable(), price_usd: usd.nullable(), status: routeStatus }))
        .min(1),
    }),
    meters: z.array(meterEntry).length(METER_NAMES.length),
    services: z.array(z.strictObject({ key: z.enum(SERVICE_KEYS), name: z.string(), access: z.string(), outcome: z.string() })).length(SERVICE_KEYS.length),
    pack_capabilities: z.array(z.strictObject({ capability: z.string(), meaning: z.string(), packs: z.array(packId).min(1) })).min(1),
    payment_flows: z.array(flow).min(1),
    authentication: authEntry,
    auth_levels: z.array(z.strictObject({ auth: z.string(), meaning: z.string() })).min(1),
    descriptors,
    planned_descriptors: descriptors.optional(),
  }),
  'AgentCapabilities',
);

export const quickstartSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    first_calls: z.array(z.strictObject({ step: z.int(), method: z.string(), url: z.string(), body: payBody.nullable(), result: z.string() })).min(1),
    headers: z.record(z.string(), z.string()),
    workflows: z.array(workflow).length(5),
    check_call: url,
    /** Null while the MCP endpoint is planned. */
    mcp_endpoint: url.nullable(),
  }),
  'AgentQuickstart',
);

export const offersSchema = envelopeSchema(
  z.strictObject({
    offers: z.array(z.never()),
    offer_codes: z.string(),
    volume_bonuses: z
      .array(z.strictObject({ pack_id: packId, name: z.string(), amount_usd: usd, credits_usd: usd, bonus_usd: usd, bonus_percent: z.number().min(0), checkout_redirect_url: url }))
      .length(PACK_IDS.length),
    note: z.string(),
  }),
  'AgentOffers',
);

export const growthSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    ladder: z.array(revenueTierSchema).length(REVENUE_TIER_KEYS.length),
    upgrade_paths: z
      .array(z.strictObject({ from_pack_id: packId, to_pack_id: packId, extra_cost_usd: usd, extra_credits_usd: usd, bonus_usd: usd, checkout_redirect_url: url }))
      .min(1),
    autopay: z.strictObject({ threshold_usd: usd, rule: z.string(), enable: strings.min(1) }),
    operator_pilot: z.strictObject({ duration_days: z.int(), pack_id: packId, request: z.string(), checkout_redirect_url: url }),
  }),
  'AgentGrowth',
);

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

export const recoverySchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    by_status: z.array(z.strictObject({ status: z.int(), codes: strings.min(1), cause: z.string(), steps: strings.min(1) })).min(1),
    retry_safety: z.string(),
    errors_catalog: url,
  }),
  'AgentRecovery',
);

export const errorCatalogSchema = envelopeSchema(
  z.strictObject({
    format: z.strictObject({ content_type: z.literal('application/problem+json'), fields: strings, note: z.string() }),
    type_base: url,
    errors: z
      .array(
        z.strictObject({
          code: z.string().regex(/^[A-Z][A-Z0-9_]+$/),
          status: z.int().min(400).max(599),
          error: z.string(),
          type: url,
          meaning: z.string().min(1),
          action: z.string().min(1),
          /** Response headers that come with it (absent: none beyond the usual). */
          headers: strings.min(1).optional(),
        }),
      )
      .min(1),
  }),
  'AgentErrorCatalog',
);

export const manifestSchema = envelopeSchema(
  z.strictObject({
    name: z.string(),
    description: z.string(),
    api_version: z.literal('v1'),
    base_url: url,
    environment: z.enum(['test', 'live']),
    envelope: z.strictObject({ fields: strings, version: z.literal('v1') }),
    authentication: authEntry,
    billing: z.strictObject({
      currency: z.literal('USD'),
      model: z.string(),
      packs: z.array(z.strictObject({ pack_id: packId, amount_usd: usd, credits_usd: usd })).length(PACK_IDS.length),
      meters: z.array(meterPrice).length(METER_NAMES.length),
    }),
    operations: z.array(operation).min(1),
    mcp: z.strictObject({ endpoint: url, status: routeStatus, tools: strings.min(1) }),
    descriptors,
    planned_descriptors: descriptors.optional(),
    documents: z.record(z.string(), url),
  }),
  'AgentManifest',
);

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

export const conversionSchema = envelopeSchema(
  z.strictObject({
    call_to_action: z.string(),
    funnel: z.array(z.strictObject({ stage: z.string(), action: z.string(), method: z.string(), url: z.string(), result: z.string() })).min(1),
    shortest_path: z.strictObject({ endpoint: url, method: z.literal('POST'), request_body_template: payBody }),
    operator_pilot_path: z.strictObject({ endpoint: url, method: z.literal('POST'), request_body_template: payBody }),
    objections: z.array(z.strictObject({ question: z.string(), answer: z.string() })).min(1),
  }),
  'AgentConversion',
);

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

export const leadsInfoSchema = envelopeSchema(
  z.strictObject({
    purpose: z.string(),
    method: z.literal('POST'),
    url,
    fields: z.array(z.strictObject({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() })).min(1),
    example: z.record(z.string(), z.unknown()),
    response: z.string(),
    pilot: z.strictObject({ duration_days: z.int(), pack_id: packId, amount_usd: usd, credits_usd: usd, services: z.array(z.enum(SERVICE_KEYS)) }),
    self_serve_alternative: z.string(),
    enterprise_page: url,
  }),
  'AgentLeadsInfo',
);

const jsonSchema = z.record(z.string(), z.unknown());
const registryAuth = z.strictObject({
  type: z.literal('api_key'),
  header: z.literal('x-api-key'),
  alternative: z.string(),
  obtain: z.strictObject({ method: z.literal('POST'), url, returns: z.string() }),
});
const registryLinks = { openapi_url: url, catalog_url: url, quickstart_url: url };

export const registryIndexSchema = envelopeSchema(
  z.strictObject({
    name: z.string(),
    description: z.string(),
    targets: z.array(z.strictObject({ target: z.enum(REGISTRY_TARGETS), url, description: z.string() })).length(REGISTRY_TARGETS.length),
    ...registryLinks,
  }),
  'AgentRegistryIndex',
);

export const registryPackSchema = envelopeSchema(
  z.discriminatedUnion('target', [
    z.strictObject({
      target: z.literal('openai'),
      format: z.literal('openai.tools'),
      name: z.string(),
      description: z.string(),
      auth: registryAuth,
      ...registryLinks,
      /** Null while the descriptor is planned. */
      ai_plugin_url: url.nullable(),
      /** Only functions whose HTTP operation is served. */
      tools: z
        .array(z.strictObject({ type: z.literal('function'), function: z.strictObject({ name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/), description: z.string(), parameters: jsonSchema }) }))
        .min(1),
      calls: z.array(z.strictObject({ function: z.string(), method: z.string(), url, meter: meter.nullable() })).min(1),
      /** Function names of the spec's tools whose operation is not served yet (absent: none). */
      planned_tools: strings.min(1).optional(),
    }),
    z.strictObject({
      target: z.literal('mcp'),
      server: z.strictObject({ name: z.string(), title: z.string(), description: z.string(), url, transport: z.string(), status: routeStatus }),
      auth: registryAuth,
      /** Null while the descriptor is planned. */
      server_json_url: url.nullable(),
      well_known_url: url.nullable(),
      ...registryLinks,
      tools: z
        .array(z.strictObject({ name: z.string(), description: z.string(), input_schema: jsonSchema, meter: meter.nullable(), price_usd: usd.nullable(), auth: z.string(), status: routeStatus }))
        .min(1),
    }),
    z.strictObject({
      target: z.literal('generic'),
      name: z.string(),
      description: z.string(),
      base_url: url,
      auth: registryAuth,
      ...registryLinks,
      /** Null while the descriptor is planned. */
      llms_txt_url: url.nullable(),
      agent_feed_url: url.nullable(),
      call_to_action: z.string(),
      pricing: z.strictObject({
        currency: z.literal('USD'),
        model: z.string(),
        packs: z.array(z.strictObject({ pack_id: packId, name: z.string(), amount_usd: usd, credits_usd: usd, checkout_redirect_url: url })).length(PACK_IDS.length),
        meters: z.array(meterPrice).length(METER_NAMES.length),
      }),
      operations: z.array(z.strictObject({ name: z.string(), method: z.string(), url, description: z.string(), auth: z.string(), status: routeStatus })).min(1),
    }),
  ]),
  'AgentRegistryPack',
);

export const registryTargetParams = z.object({ target: z.string().min(1).max(64) });
