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
  pathStatus,
  QUICKSTART_WORKFLOWS,
  type RouteStatus,
} from '#agent-contract';
import { meter, routeStatus, strings, url, urlTemplate, usd } from './catalog.schemas.js';
import { centsToUsd } from '#kernel';
import { fillText, fillTexts, TEXTS } from './document-texts.js';

export const SERVICE_NAME = TEXTS.service.name;

export const SERVICE_DESCRIPTION = TEXTS.service.description;

/** At most 100 characters: what registries show in a list (MCP server.json, the OpenAI plugin manifest). */
export const SERVICE_SHORT_DESCRIPTION = TEXTS.service.short_description;

/** The version of the agent surface that descriptors announce (MCP server.json `version`). */
export const SERVICE_VERSION = TEXTS.service.version;

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
    alternative: TEXTS.authentication.alternative,
    key_prefix: `svc_${ctx.env}_`,
    issued_by: [endpointUrl(ctx, 'pay'), endpointUrl(ctx, 'signup')],
    rotation: endpointUrl(ctx, 'keys'),
    enterprise: TEXTS.authentication.enterprise,
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

/** A flow of the texts with its steps filled in: planned while one of the operations it uses is. */
export function flowEntry(ctx: CatalogContext, f: { key: string; name: string; endpoints: string[]; steps: string[] }) {
  return {
    key: f.key,
    name: f.name,
    status: allOf(...f.endpoints.map((e) => endpointStatus(e))),
    steps: fillTexts(ctx, f.steps),
  };
}

export function paymentFlows(ctx: CatalogContext) {
  return TEXTS.payment_flows.map((f) => flowEntry(ctx, f));
}

export function attributionParameters(ctx: CatalogContext) {
  return TEXTS.attribution.map((a) => ({ name: a.name, where: a.where, meaning: fillText(ctx, a.meaning) }));
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
