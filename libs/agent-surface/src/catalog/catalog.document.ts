/**
 * GET /api/v1/agents/catalog (spec "Pack entry in the catalog response", "Service catalogue
 * entry", "Revenue tier entry" and the catalog row of "information and guidance").
 */
import { z } from 'zod';
import {
  AGENT_API_PREFIX,
  agentUrl,
  AUTOPAY_THRESHOLD_PLACEHOLDER,
  type CatalogContext,
  CREDIT_PACKS,
  endpointUrl,
  envelopeSchema,
  findPack,
  type KeyBinding,
  MCP_TOOLS,
  meterCostCents,
  type Objective,
  OBJECTIVE_PACK,
  PACK_OBJECTIVE,
  type PackCapability,
  packCheckoutUrl,
  type PackId,
  type PackRecommendation,
  pathStatus,
  REVENUE_TIER_KEYS,
  REVENUE_TIERS,
  type RevenueTierKey,
  type RouteStatus,
  SERVICE_CATALOG,
  SERVICE_KEYS,
  type ServiceDefinition,
  type ServiceKey,
  STARTER_PACK_ID,
  toolStatus,
} from '#agent-contract';
import { meter, packId, payBodyTemplate, routeStatus, strings, url, usd } from './catalog.schemas.js';
import { centsToUsd } from '#kernel';
import { TEXTS } from './document-texts.js';

export const CATALOG_SOURCE = 'catalog';

export interface CatalogPackEntry {
  pack_id: PackId;
  name: string;
  amount_usd: number;
  base_credits_usd: number;
  payment_link: null;
  checkout_redirect_url: string;
  offers: never[];
  recommendation: PackRecommendation;
  capabilities: PackCapability[];
}

/** A request to POST /agents/pay, ready to send (every field is optional there). */
export interface PayRequestBody {
  objective: Objective;
  pack_id: PackId;
  agent_name?: string;
  use_case?: string;
  contact_email?: string;
  source_ref: string;
}

export interface PurchasePath {
  endpoint: string;
  method: 'POST';
  pack_id: PackId;
  request_body_template: PayRequestBody;
}

export interface ServiceCatalogEntry {
  key: ServiceKey;
  name: string;
  access: ServiceDefinition['access'];
  revenue_priority: ServiceDefinition['revenue_priority'];
  pricing_model: ServiceDefinition['pricing_model'];
  outcome: string;
  primary_meters: string[];
  estimated_default_cost_usd: number;
  included_endpoints: string[];
  included_mcp_methods: string[];
  buy_now_url: string;
  upgrade_url?: string;
  includes: string[];
  /** planned when one of its endpoints is not served yet. */
  status: RouteStatus;
  /** The included endpoints not served yet; absent when none. */
  planned_endpoints?: string[];
  /** The included MCP tools that cannot be called yet; absent when none. */
  planned_mcp_methods?: string[];
}

export interface RevenueTierEntry {
  key: RevenueTierKey;
  name: string;
  buyer: string;
  pricing_model: string;
  best_for: string;
  primary_service_keys: ServiceKey[];
  buy_now_url: string;
  included: string[];
}

export interface EnterpriseUpgrade {
  objective: 'enterprise';
  pack_id: PackId;
  checkout_redirect_url: string;
  /** Where an enterprise workspace is requested (the lead form's description). */
  page_url: string;
}

export interface CatalogData {
  catalog: CatalogPackEntry[];
  call_to_action: string;
  fastest_revenue_path: PurchasePath;
  operator_pilot_path: PurchasePath;
  service_catalog: ServiceCatalogEntry[];
  revenue_tiers: RevenueTierEntry[];
  enterprise_upgrade: EnterpriseUpgrade;
}

export function catalogPackEntries(ctx: CatalogContext, source = CATALOG_SOURCE): CatalogPackEntry[] {
  return CREDIT_PACKS.map((p) => ({
    pack_id: p.pack_id,
    name: p.name,
    amount_usd: centsToUsd(p.amount_cents),
    base_credits_usd: centsToUsd(p.credits_cents),
    payment_link: null,
    checkout_redirect_url: packCheckoutUrl(ctx, { objective: PACK_OBJECTIVE[p.pack_id], pack_id: p.pack_id, source }),
    offers: [],
    recommendation: { ...p.recommendation },
    capabilities: [...p.capabilities],
  }));
}

/** Pay bodies for the two named purchase paths. */
export function fastestRevenueBody(sourceRef: string): PayRequestBody {
  return {
    objective: 'starter',
    pack_id: STARTER_PACK_ID,
    agent_name: TEXTS.pay_templates.fastest_revenue.agent_name,
    use_case: TEXTS.pay_templates.fastest_revenue.use_case,
    source_ref: sourceRef,
  };
}

export function operatorPilotBody(sourceRef: string): PayRequestBody {
  return {
    objective: 'operator_pilot',
    pack_id: OBJECTIVE_PACK.operator_pilot,
    agent_name: TEXTS.pay_templates.operator_pilot.agent_name,
    use_case: TEXTS.pay_templates.operator_pilot.use_case,
    contact_email: TEXTS.pay_templates.operator_pilot.contact_email,
    source_ref: sourceRef,
  };
}

export function purchasePath(ctx: CatalogContext, body: PayRequestBody): PurchasePath {
  return { endpoint: endpointUrl(ctx, 'pay'), method: 'POST', pack_id: body.pack_id, request_body_template: body };
}

/** The enterprise page: the description of the lead form (GET /agents/leads). */
export function enterprisePageUrl(ctx: CatalogContext): string {
  return endpointUrl(ctx, 'leads_info');
}

export function enterpriseUpgrade(ctx: CatalogContext, source: string, binding?: KeyBinding): EnterpriseUpgrade {
  const pack_id = OBJECTIVE_PACK.enterprise;
  return {
    objective: 'enterprise',
    pack_id,
    checkout_redirect_url: packCheckoutUrl(ctx, {
      objective: 'enterprise',
      pack_id,
      source,
      ...(binding ? { binding } : {}),
    }),
    page_url: enterprisePageUrl(ctx),
  };
}

export function serviceCatalogEntries(ctx: CatalogContext, source = CATALOG_SOURCE): ServiceCatalogEntry[] {
  return SERVICE_CATALOG.map((s) => {
    const plannedEndpoints = s.included_endpoints.filter(
      (p) => pathStatus(p.slice(AGENT_API_PREFIX.length)) === 'planned',
    );
    const plannedTools = s.included_mcp_methods.filter(
      (name) => toolStatus(MCP_TOOLS.find((t) => t.name === name)!) === 'planned',
    );
    return {
      key: s.key,
      name: s.name,
      access: s.access,
      revenue_priority: s.revenue_priority,
      pricing_model: s.pricing_model,
      outcome: s.outcome,
      primary_meters: [...s.primary_meters],
      // "Default" cost: at the D17 default prices, whatever the deployment configured.
      estimated_default_cost_usd: centsToUsd(meterCostCents(s.primary_meters)),
      included_endpoints: [...s.included_endpoints],
      included_mcp_methods: [...s.included_mcp_methods],
      buy_now_url: packCheckoutUrl(ctx, { objective: s.objective, pack_id: s.pack_id, source }),
      ...(s.access === 'enterprise' ? { upgrade_url: enterprisePageUrl(ctx) } : {}),
      includes: [...s.includes],
      status: plannedEndpoints.length ? 'planned' : 'available',
      ...(plannedEndpoints.length ? { planned_endpoints: plannedEndpoints } : {}),
      ...(plannedTools.length ? { planned_mcp_methods: plannedTools } : {}),
    };
  });
}

export function revenueTierEntries(ctx: CatalogContext, source = CATALOG_SOURCE): RevenueTierEntry[] {
  return REVENUE_TIERS.map((t) => ({
    key: t.key,
    name: t.name,
    buyer: t.buyer,
    pricing_model: t.pricing_model,
    best_for: t.best_for,
    primary_service_keys: [...t.primary_service_keys],
    buy_now_url: packCheckoutUrl(ctx, { objective: t.objective, pack_id: t.pack_id, source }),
    included: t.included.map((item) =>
      item.replaceAll(AUTOPAY_THRESHOLD_PLACEHOLDER, `${centsToUsd(ctx.autopayThresholdCents)} USD`),
    ),
  }));
}

export function callToAction(ctx: CatalogContext): string {
  const starter = findPack(STARTER_PACK_ID)!;
  const discovery = ctx.prices['read.discovery_top'];
  return (
    `POST ${endpointUrl(ctx, 'pay')} to get an API key and a ${centsToUsd(starter.amount_cents)} USD checkout in one call, ` +
    `pay at starter_checkout.url, then GET ${agentUrl(ctx, '/discovery/top?limit=10')} with x-api-key ` +
    `(${centsToUsd(discovery).toFixed(2)} USD per successful call).`
  );
}

export function buildCatalog(ctx: CatalogContext): CatalogData {
  return {
    catalog: catalogPackEntries(ctx),
    call_to_action: callToAction(ctx),
    fastest_revenue_path: purchasePath(ctx, fastestRevenueBody(CATALOG_SOURCE)),
    operator_pilot_path: purchasePath(ctx, operatorPilotBody(CATALOG_SOURCE)),
    service_catalog: serviceCatalogEntries(ctx),
    revenue_tiers: revenueTierEntries(ctx),
    enterprise_upgrade: enterpriseUpgrade(ctx, CATALOG_SOURCE),
  };
}

// ---------------------------------------------------------------- schemas

const purchasePathSchema = z.strictObject({
  endpoint: url,
  method: z.literal('POST'),
  pack_id: packId,
  request_body_template: payBodyTemplate,
});

export const catalogPackEntrySchema = z
  .strictObject({
    pack_id: packId,
    name: z.string(),
    amount_usd: usd,
    base_credits_usd: usd,
    payment_link: z.null(),
    checkout_redirect_url: url,
    offers: z.array(z.never()),
    recommendation: z.strictObject({
      fastest_revenue: z.boolean(),
      twenty_four_seven: z.boolean(),
      operator_pilot: z.boolean(),
      enterprise: z.boolean(),
    }),
    capabilities: z.array(
      z.enum(['entry-access', 'quickstart', 'proof-workloads', 'production-usage', 'autopay', 'continuous-discovery']),
    ),
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

export const enterpriseUpgradeSchema = z.strictObject({
  objective: z.literal('enterprise'),
  pack_id: packId,
  checkout_redirect_url: url,
  page_url: url,
});

export const catalogSchema = envelopeSchema(
  z.strictObject({
    catalog: z.array(catalogPackEntrySchema),
    call_to_action: z.string().min(1),
    fastest_revenue_path: purchasePathSchema,
    operator_pilot_path: purchasePathSchema,
    service_catalog: z.array(serviceCatalogEntrySchema),
    revenue_tiers: z.array(revenueTierSchema),
    enterprise_upgrade: enterpriseUpgradeSchema,
  }),
  'AgentCatalog',
);
