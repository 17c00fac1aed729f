/**
 * The information documents of /api/v1/agents/* (spec "Agent data API: information and
 * guidance") are pure functions of the catalogue data and a CatalogContext, so every document
 * quotes the same packs, meters, prices, limits and links. This file holds what several of them
 * share, builders and schemas: the service's name, meters, operations, authentication,
 * descriptors, workflows, payment flows and attribution parameters. The documents, one file per
 * group with its schemas: status, capabilities, purchase, acquisition and recovery
 * (*.documents.ts), leads/leads-info.document.ts; catalog, guidance and registry-pack
 * (*.document.ts).
 */
import { z } from 'zod';
import {
  type AgentEndpoint,
  agentUrl,
  type CatalogContext,
  DESCRIPTOR_PATHS,
  type DescriptorName,
  descriptorStatus,
  endpointStatus,
  endpointUrl,
  meterCostCents,
  METERS,
  meterStatus,
  OBJECTIVES,
  pathStatus,
  QUICKSTART_WORKFLOWS,
  type RouteStatus,
} from '#agent-contract';
import { meter, routeStatus, strings, url, urlTemplate, usd } from './catalog.schemas.js';
import { centsToUsd } from '#kernel';

export const SERVICE_NAME = 'svc agent data API';

export const SERVICE_DESCRIPTION =
  'Machine-first venture intelligence: a ranked discovery list, company profiles and transparent company scores, ' +
  'billed per successful call from prepaid credits; enterprise tenants also get a private workspace, a tenant event stream and webhooks. ' +
  'The same operations are MCP tools.';

/** At most 100 characters: what registries show in a list (MCP server.json, the OpenAI plugin manifest). */
export const SERVICE_SHORT_DESCRIPTION =
  'Venture intelligence for agents: startup discovery, company profiles and scores, paid per call.';

/** The version of the agent surface that descriptors announce (MCP server.json `version`). */
export const SERVICE_VERSION = '1.0.0';

export const usdText = (cents: number) => `${centsToUsd(cents)} USD`;

export function meterEntries(ctx: CatalogContext) {
  return METERS.map((m) => ({
    meter: m.meter,
    price_usd: centsToUsd(ctx.prices[m.meter]),
    description: m.description,
    charged_on: m.charged_on,
    access: m.enterprise ? ('enterprise' as const) : ('self_serve' as const),
    /** planned while no operation that charges it is served. */
    status: meterStatus(m.meter),
  }));
}

export function operationEntry(ctx: CatalogContext, e: AgentEndpoint) {
  return {
    name: e.name,
    method: e.method,
    url: agentUrl(ctx, e.path),
    group: e.group,
    auth: e.auth,
    summary: e.summary,
    meter: e.meter ?? null,
    price_usd: e.meter ? centsToUsd(ctx.prices[e.meter]) : null,
    status: endpointStatus(e),
  };
}

export function authentication(ctx: CatalogContext) {
  return {
    header: 'x-api-key',
    alternative: 'Authorization: Bearer <key>',
    key_prefix: `svc_${ctx.env}_`,
    issued_by: [endpointUrl(ctx, 'pay'), endpointUrl(ctx, 'signup')],
    rotation: endpointUrl(ctx, 'keys'),
    enterprise: 'Workspace operations need a tenant-bound service-account key.',
  };
}

/** The descriptor documents of one status, by name. */
function descriptorUrls(ctx: CatalogContext, status: RouteStatus) {
  return Object.fromEntries(
    Object.entries(DESCRIPTOR_PATHS)
      .filter(([name]) => descriptorStatus(name as DescriptorName) === status)
      .map(([name, path]) => [name, `${ctx.baseUrl}${path}`]),
  ) as Partial<Record<DescriptorName, string>>;
}

/** `{[key]: served descriptors, [planned_key]: the others}`; the planned map only when there are any. */
export function descriptorMaps<K extends string>(ctx: CatalogContext, key: K) {
  const planned = descriptorUrls(ctx, 'planned');
  return {
    [key]: descriptorUrls(ctx, 'available'),
    ...(Object.keys(planned).length ? { [`planned_${key}`]: planned } : {}),
  } as Record<K, Partial<Record<DescriptorName, string>>> &
    Partial<Record<`planned_${K}`, Partial<Record<DescriptorName, string>>>>;
}

/** A status for several routes: planned when any of them is. */
const allOf = (...statuses: RouteStatus[]): RouteStatus => (statuses.includes('planned') ? 'planned' : 'available');

export function workflowEntries(ctx: CatalogContext) {
  return QUICKSTART_WORKFLOWS.map((w) => {
    const charged = w.steps_mode === 'any_one' ? w.meters.slice(0, 1) : w.meters;
    const steps = w.steps.map((s) => ({
      method: s.method,
      url: agentUrl(ctx, s.path),
      mcp_tool: s.mcp_tool ?? null,
      meter: s.meter ?? null,
      price_usd: s.meter ? centsToUsd(ctx.prices[s.meter]) : null,
      status: pathStatus(s.path, s.method),
    }));
    return {
      key: w.key,
      name: w.name,
      access: w.access,
      meters: [...w.meters],
      estimated_default_cost_usd: centsToUsd(meterCostCents(charged)),
      estimated_cost_usd: centsToUsd(meterCostCents(charged, ctx.prices)),
      steps_mode: w.steps_mode,
      steps,
      status: allOf(...steps.map((s) => s.status)),
    };
  });
}

export function paymentFlows(ctx: CatalogContext) {
  return [
    {
      key: 'instant',
      name: 'Key and checkout in one call',
      status: endpointStatus('pay'),
      steps: [
        `POST ${endpointUrl(ctx, 'pay')} (all body fields optional): returns key.id, key.api_key and starter_checkout.url.`,
        'Open starter_checkout.url and pay; credits are granted when the payment completes.',
        'Call paid reads with the key.',
      ],
    },
    {
      key: 'direct_charge',
      name: 'Charge a saved payment method',
      status: allOf(
        endpointStatus('setup_intent'),
        endpointStatus('attach_payment_method'),
        endpointStatus('topup_charge'),
      ),
      steps: [
        `POST ${endpointUrl(ctx, 'setup_intent')}: returns client_secret.`,
        "Confirm the client secret with the payment processor's client SDK.",
        `POST ${endpointUrl(ctx, 'attach_payment_method')}.`,
        `POST ${endpointUrl(ctx, 'topup_charge')} with payment_method_id, pack_id and save_for_autopay (true enables automatic recharge).`,
      ],
    },
    {
      key: 'redirect',
      name: 'Checkout link',
      status: endpointStatus('checkout_link'),
      steps: [
        `GET ${endpointUrl(ctx, 'checkout_link')}?objective=…&pack_id=…&key_id=key_… (key_id, or your key in x-api-key, binds it to that key’s account; a browser needs only the key id): 303 to the hosted checkout, or {url} with Accept: application/json.`,
      ],
    },
  ];
}

export function attributionParameters() {
  return [
    {
      name: 'source',
      where: 'query of /agents/pay and /agents/checkout-link',
      meaning: 'where the buyer came from (a registry, a referrer, a campaign)',
    },
    {
      name: 'source_ref',
      where: 'body of /agents/pay, query of /agents/signup',
      meaning: 'free-form reference of the referrer',
    },
    {
      name: 'objective',
      where: 'query or body of /agents/pay, query of /agents/checkout-link',
      meaning: `what the buyer wants: ${OBJECTIVES.join(', ')}`,
    },
  ];
}

// ---------------------------------------------------------------- schemas

export const meterEntry = z.strictObject({
  meter,
  price_usd: usd,
  description: z.string(),
  charged_on: z.string(),
  access: z.enum(['self_serve', 'enterprise']),
  status: routeStatus,
});
export const meterPrice = z.strictObject({ meter, price_usd: usd });
export const authEntry = z.strictObject({
  header: z.literal('x-api-key'),
  alternative: z.string(),
  key_prefix: z.string(),
  issued_by: z.array(url),
  rotation: url,
  enterprise: z.string(),
});
export const operation = z.strictObject({
  name: z.string(),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  url: urlTemplate,
  group: z.enum(['onboarding', 'billing', 'information', 'data', 'workspace', 'mcp']),
  auth: z.enum(['none', 'key', 'key_optional', 'tenant_key']),
  summary: z.string(),
  meter: meter.nullable(),
  price_usd: usd.nullable(),
  status: routeStatus,
});
export const descriptors = z.record(z.string(), url);
export const flow = z.strictObject({ key: z.string(), name: z.string(), status: routeStatus, steps: strings.min(1) });
export const workflow = z.strictObject({
  key: z.string(),
  name: z.string(),
  access: z.enum(['self_serve', 'enterprise']),
  meters: z.array(meter).min(1),
  estimated_default_cost_usd: usd,
  estimated_cost_usd: usd,
  steps_mode: z.enum(['sequence', 'any_one']),
  steps: z
    .array(
      z.strictObject({
        method: z.string(),
        url: urlTemplate,
        mcp_tool: z.string().nullable(),
        meter: meter.nullable(),
        price_usd: usd.nullable(),
        status: routeStatus,
      }),
    )
    .min(1),
  /** planned when one of its steps is. */
  status: routeStatus,
});
export const attribution = z.array(z.strictObject({ name: z.string(), where: z.string(), meaning: z.string() })).min(1);
