/**
 * What the agent surface offers and how to call it: GET /api/v1/agents/capabilities,
 * /agents/quickstart and /agents/manifest. Operations, MCP tools and descriptors carry their
 * status (agent-surface.ts): planned ones are listed as such, never as callable.
 */
import { z } from 'zod';
import {
  AGENT_ENDPOINTS,
  agentBaseUrl,
  agentUrl,
  type CatalogContext,
  CREDIT_PACKS,
  endpointStatus,
  endpointUrl,
  envelopeSchema,
  findEndpoint,
  findPack,
  MCP_TOOLS,
  METER_NAMES,
  PACK_IDS,
  SERVICE_CATALOG,
  SERVICE_KEYS,
  STARTER_PACK_ID,
  toolStatus,
} from '#agent-contract';
import { fastestRevenueBody } from './catalog.document.js';
import { meter, packId, payBodyTemplate, routeStatus, strings, url, usd } from './catalog.schemas.js';
import {
  authEntry,
  authentication,
  descriptorMaps,
  descriptors,
  flow,
  meterEntries,
  meterEntry,
  meterPrice,
  operation,
  operationEntry,
  paymentFlows,
  SERVICE_DESCRIPTION,
  SERVICE_NAME,
  usdText,
  workflow,
  workflowEntries,
} from './information.parts.js';
import { PAY_IDEMPOTENCY_NOTE } from '#agent-billing';
import { centsToUsd } from '#kernel';
import { TEXTS } from './document-texts.js';

// ---------------------------------------------------------------- capabilities

export function buildCapabilities(ctx: CatalogContext) {
  const tags = [...new Set(CREDIT_PACKS.flatMap((p) => p.capabilities))];
  return {
    summary: SERVICE_DESCRIPTION,
    operations: AGENT_ENDPOINTS.map((e) => operationEntry(ctx, e)),
    mcp: {
      endpoint: endpointUrl(ctx, 'mcp'),
      status: endpointStatus('mcp'),
      tools: MCP_TOOLS.map((t) => {
        const e = findEndpoint(t.endpoint);
        return {
          name: t.name,
          description: t.description,
          equivalent: `${e.method} ${agentUrl(ctx, e.path)}`,
          auth: t.auth,
          meter: t.meter ?? null,
          price_usd: t.meter ? centsToUsd(ctx.prices[t.meter]) : null,
          status: toolStatus(t),
        };
      }),
    },
    meters: meterEntries(ctx),
    services: SERVICE_CATALOG.map((s) => ({ key: s.key, name: s.name, access: s.access, outcome: s.outcome })),
    pack_capabilities: tags.map((tag) => ({
      capability: tag,
      meaning: TEXTS.pack_capabilities[tag],
      packs: CREDIT_PACKS.filter((p) => p.capabilities.includes(tag)).map((p) => p.pack_id),
    })),
    payment_flows: paymentFlows(ctx),
    authentication: authentication(ctx),
    auth_levels: Object.entries(TEXTS.auth_levels).map(([auth, meaning]) => ({ auth, meaning })),
    ...descriptorMaps(ctx, 'descriptors'),
  };
}

export const capabilitiesSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    operations: z.array(operation).min(1),
    mcp: z.strictObject({
      endpoint: url,
      status: routeStatus,
      tools: z
        .array(
          z.strictObject({
            name: z.string(),
            description: z.string(),
            equivalent: z.string(),
            auth: z.string(),
            meter: meter.nullable(),
            price_usd: usd.nullable(),
            status: routeStatus,
          }),
        )
        .min(1),
    }),
    meters: z.array(meterEntry).length(METER_NAMES.length),
    services: z
      .array(z.strictObject({ key: z.enum(SERVICE_KEYS), name: z.string(), access: z.string(), outcome: z.string() }))
      .length(SERVICE_KEYS.length),
    pack_capabilities: z
      .array(z.strictObject({ capability: z.string(), meaning: z.string(), packs: z.array(packId).min(1) }))
      .min(1),
    payment_flows: z.array(flow).min(1),
    authentication: authEntry,
    auth_levels: z.array(z.strictObject({ auth: z.string(), meaning: z.string() })).min(1),
    descriptors,
    planned_descriptors: descriptors.optional(),
  }),
  'AgentCapabilities',
);

// ---------------------------------------------------------------- quickstart

export function buildQuickstart(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  return {
    summary: `Four calls from nothing to data: get a key and a checkout, pay ${usdText(starter.amount_cents)}, check the balance, read the discovery list.`,
    first_calls: [
      {
        step: 1,
        method: 'POST',
        url: endpointUrl(ctx, 'pay'),
        headers: { 'Idempotency-Key': '<a UUID you generate once for this account>' },
        body: fastestRevenueBody('quickstart'),
        result: 'key.id, key.api_key (shown once: store it) and starter_checkout.url',
        note: PAY_IDEMPOTENCY_NOTE,
      },
      {
        step: 2,
        method: 'GET',
        url: 'starter_checkout.url',
        body: null,
        result: `hosted checkout for ${starter.pack_id}: pay ${usdText(starter.amount_cents)}`,
      },
      {
        step: 3,
        method: 'GET',
        url: endpointUrl(ctx, 'status'),
        body: null,
        result: `with x-api-key: balance_usd ${centsToUsd(starter.credits_cents)}`,
      },
      {
        step: 4,
        method: 'GET',
        url: agentUrl(ctx, '/discovery/top?limit=10'),
        body: null,
        result: `ranked opportunities; X-Credits-Charged ${centsToUsd(ctx.prices['read.discovery_top']).toFixed(2)}`,
      },
    ],
    headers: { 'x-api-key': '<key.api_key>', accept: 'application/json' },
    workflows: workflowEntries(ctx),
    check_call: `${endpointUrl(ctx, 'pay_check')}?objective=starter`,
    /** Null while the MCP endpoint is planned. */
    mcp_endpoint: endpointStatus('mcp') === 'available' ? endpointUrl(ctx, 'mcp') : null,
  };
}

export const quickstartSchema = envelopeSchema(
  z.strictObject({
    summary: z.string(),
    first_calls: z
      .array(
        z.strictObject({
          step: z.int(),
          method: z.string(),
          url: z.string(),
          headers: z.record(z.string(), z.string()).optional(),
          body: payBodyTemplate.nullable(),
          result: z.string(),
          note: z.string().optional(),
        }),
      )
      .min(1),
    headers: z.record(z.string(), z.string()),
    workflows: z.array(workflow).length(5),
    check_call: url,
    /** Null while the MCP endpoint is planned. */
    mcp_endpoint: url.nullable(),
  }),
  'AgentQuickstart',
);

// ---------------------------------------------------------------- manifest

export function buildManifest(ctx: CatalogContext) {
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    api_version: 'v1' as const,
    base_url: agentBaseUrl(ctx),
    environment: ctx.env,
    envelope: { fields: ['version', 'as_of', 'data'], version: 'v1' },
    authentication: authentication(ctx),
    billing: {
      currency: 'USD',
      model: 'prepaid credits, charged per successful call by named meters',
      packs: CREDIT_PACKS.map((p) => ({
        pack_id: p.pack_id,
        amount_usd: centsToUsd(p.amount_cents),
        credits_usd: centsToUsd(p.credits_cents),
      })),
      meters: meterEntries(ctx).map(({ meter, price_usd }) => ({ meter, price_usd })),
    },
    operations: AGENT_ENDPOINTS.map((e) => operationEntry(ctx, e)),
    mcp: { endpoint: endpointUrl(ctx, 'mcp'), status: endpointStatus('mcp'), tools: MCP_TOOLS.map((t) => t.name) },
    ...descriptorMaps(ctx, 'descriptors'),
    documents: {
      catalog: endpointUrl(ctx, 'catalog'),
      quickstart: endpointUrl(ctx, 'quickstart'),
      errors: endpointUrl(ctx, 'errors'),
      registry_pack: endpointUrl(ctx, 'registry_pack'),
    },
  };
}

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
