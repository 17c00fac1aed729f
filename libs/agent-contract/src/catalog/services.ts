/**
 * The service catalogue, revenue tiers and quickstart workflows (spec "Service catalogue entry",
 * "Revenue tier entry", "Quickstart workflows"). Pure data in cents; the documents add URLs and
 * convert to US dollars. A cost is the sum of the prices of the meters one run charges once.
 * The entries are data (services.data.yaml), checked by the schema below when this module loads.
 */
import { z } from 'zod';
import { loadDataFile } from '#kernel';
import { AGENT_API_PREFIX, AGENT_ENDPOINTS, MCP_TOOLS } from './agent-surface.js';
import { DEFAULT_METER_PRICES_CENTS, METER_NAMES, type MeterName, type MeterPrices } from './meters.js';
import { type Objective, OBJECTIVES, OPERATOR_PILOT_DAYS, PACK_OBJECTIVE } from './objectives.js';
import { PACK_IDS, type PackId } from './packs.js';

/** Cost in cents of charging each meter once at the given prices (D17 defaults unless told). */
export function meterCostCents(meters: readonly MeterName[], prices: MeterPrices = DEFAULT_METER_PRICES_CENTS): number {
  return meters.reduce((sum, m) => sum + prices[m], 0);
}

export const SERVICE_KEYS = ['find', 'evaluate', 'operator_pilot', 'monitor', 'workspace_automation'] as const;
export type ServiceKey = (typeof SERVICE_KEYS)[number];

export interface ServiceDefinition {
  key: ServiceKey;
  name: string;
  access: 'self_serve' | 'enterprise';
  revenue_priority: 'now' | 'expansion' | 'enterprise';
  pricing_model: 'prepaid_per_call' | 'prepaid_per_event' | 'enterprise_commit';
  outcome: string;
  /** One run charges each of these once; its estimated cost is their price sum. */
  primary_meters: readonly MeterName[];
  /** Paths under /api/v1. */
  included_endpoints: readonly string[];
  included_mcp_methods: readonly string[];
  includes: readonly string[];
  /** The pack (and objective) its buy-now link sells. */
  pack_id: PackId;
  objective: Objective;
}

/** Placeholder for the configured autopay threshold ("25 USD") in revenue tier texts. */
export const AUTOPAY_THRESHOLD_PLACEHOLDER = '{{autopay_threshold}}';

export const REVENUE_TIER_KEYS = [
  'builder_proof',
  'builder_continuous',
  'operator_pilot',
  'enterprise_workspace',
] as const;
export type RevenueTierKey = (typeof REVENUE_TIER_KEYS)[number];

export interface RevenueTierDefinition {
  key: RevenueTierKey;
  name: string;
  buyer: string;
  pricing_model: ServiceDefinition['pricing_model'];
  best_for: string;
  primary_service_keys: readonly ServiceKey[];
  /** AUTOPAY_THRESHOLD_PLACEHOLDER in an item stands for the deployment's threshold (revenueTierEntries fills it in). */
  included: readonly string[];
  pack_id: PackId;
  objective: Objective;
}

export interface QuickstartStep {
  method: 'GET' | 'POST' | 'PATCH';
  /** Path under /api/v1. */
  path: string;
  mcp_tool?: string;
  meter?: MeterName;
}

export interface QuickstartWorkflow {
  key: string;
  name: string;
  access: 'self_serve' | 'enterprise';
  meters: readonly MeterName[];
  steps: readonly QuickstartStep[];
  /** `sequence`: run every step once; `any_one`: the steps are alternatives (one charge). */
  steps_mode: 'sequence' | 'any_one';
}

// ---------------------------------------------------------------- the data file's schema

const PILOT_DAYS = '{{operator_pilot_days}}';

/** A text of the file: `{{operator_pilot_days}}` filled in; any other `{{…}}` is refused (a typo would be published). */
const text = (placeholders: readonly string[] = []) =>
  z
    .string()
    .min(1)
    .refine((s) => (s.match(/\{\{[^}]*\}\}/g) ?? []).every((p) => p === PILOT_DAYS || placeholders.includes(p)), {
      message: `unknown placeholder (known: ${[PILOT_DAYS, ...placeholders].join(', ')})`,
    })
    .transform((s) => s.replaceAll(PILOT_DAYS, String(OPERATOR_PILOT_DAYS)));

const meters = z.array(z.enum(METER_NAMES)).min(1);
const access = z.enum(['self_serve', 'enterprise']);
const pricingModel = z.enum(['prepaid_per_call', 'prepaid_per_event', 'enterprise_commit']);
const sale = { pack_id: z.enum(PACK_IDS), objective: z.enum(OBJECTIVES) };

const ServiceRow = z.strictObject({
  key: z.enum(SERVICE_KEYS),
  name: text(),
  access,
  revenue_priority: z.enum(['now', 'expansion', 'enterprise']),
  pricing_model: pricingModel,
  outcome: text(),
  primary_meters: meters,
  included_endpoints: z.array(z.string().startsWith(`${AGENT_API_PREFIX}/`)).min(1),
  included_mcp_methods: z.array(z.string()).min(1),
  includes: z.array(text()).min(1),
  ...sale,
});

const TierRow = z.strictObject({
  key: z.enum(REVENUE_TIER_KEYS),
  name: text(),
  buyer: text(),
  pricing_model: pricingModel,
  best_for: text(),
  primary_service_keys: z.array(z.enum(SERVICE_KEYS)).min(1),
  included: z.array(text([AUTOPAY_THRESHOLD_PLACEHOLDER])).min(1),
  ...sale,
});

const WorkflowRow = z.strictObject({
  key: z.string().regex(/^[a-z][a-z0-9_]*$/),
  steps_mode: z.enum(['sequence', 'any_one']),
  name: text(),
  access,
  meters,
  steps: z
    .array(
      z.strictObject({
        method: z.enum(['GET', 'POST', 'PATCH']),
        path: z.string().startsWith('/'),
        mcp_tool: z.string().optional(),
        meter: z.enum(METER_NAMES).optional(),
      }),
    )
    .min(1),
});

type Issue = { path: (string | number)[]; message: string };

/** Each row's keys once and in their code order (the documents list them in that order). */
function keysInOrder(rows: readonly { key: string }[], keys: readonly string[], at: string, issues: Issue[]) {
  const got = rows.map((r) => r.key).join(', ');
  if (got !== keys.join(', ')) issues.push({ path: [at], message: `keys must be ${keys.join(', ')}, got ${got}` });
}

/** A pack is sold with the objective its catalogue checkout link carries (PACK_OBJECTIVE). */
function saleMatches(rows: readonly { pack_id: PackId; objective: Objective }[], at: string, issues: Issue[]) {
  rows.forEach((r, i) => {
    if (PACK_OBJECTIVE[r.pack_id] !== r.objective)
      issues.push({ path: [at, i, 'objective'], message: `${r.pack_id} is sold as ${PACK_OBJECTIVE[r.pack_id]}` });
  });
}

function endpointsExist(services: readonly z.output<typeof ServiceRow>[], issues: Issue[]) {
  const paths = new Set(AGENT_ENDPOINTS.map((e) => `${AGENT_API_PREFIX}${e.path}`));
  const tools = new Set(MCP_TOOLS.map((t) => t.name));
  services.forEach((s, i) => {
    s.included_endpoints.forEach((p, j) => {
      if (!paths.has(p)) issues.push({ path: ['services', i, 'included_endpoints', j], message: `no endpoint ${p}` });
    });
    s.included_mcp_methods.forEach((t, j) => {
      if (!tools.has(t)) issues.push({ path: ['services', i, 'included_mcp_methods', j], message: `no MCP tool ${t}` });
    });
  });
}

/** A step calls an endpoint of the table; its tool and meter are that endpoint's, and the workflow charges the meter. */
function stepsMatchTheTable(workflows: readonly z.output<typeof WorkflowRow>[], issues: Issue[]) {
  workflows.forEach((w, i) =>
    w.steps.forEach((s, j) => {
      const at = ['quickstart_workflows', i, 'steps', j];
      const bare = s.path.split('?')[0];
      const e = AGENT_ENDPOINTS.find((x) => x.path === bare && x.method === s.method);
      if (!e) return issues.push({ path: at, message: `no endpoint ${s.method} ${bare}` });
      const tool = s.mcp_tool && MCP_TOOLS.find((t) => t.name === s.mcp_tool);
      if (s.mcp_tool && (!tool || tool.endpoint !== e.name))
        issues.push({ path: [...at, 'mcp_tool'], message: `${s.mcp_tool} is not the tool of ${s.method} ${bare}` });
      if (s.meter !== e.meter)
        issues.push({ path: [...at, 'meter'], message: `${s.method} ${bare} charges ${e.meter}` });
      if (s.meter && !w.meters.includes(s.meter))
        issues.push({ path: [...at, 'meter'], message: `${s.meter} is not among the workflow's meters` });
    }),
  );
}

/** The shape of services.data.yaml (exported for its spec). */
export const servicesFileSchema = z
  .strictObject({
    services: z.array(ServiceRow),
    revenue_tiers: z.array(TierRow),
    quickstart_workflows: z.array(WorkflowRow).min(1),
  })
  .superRefine((file, ctx) => {
    const issues: Issue[] = [];
    keysInOrder(file.services, SERVICE_KEYS, 'services', issues);
    keysInOrder(file.revenue_tiers, REVENUE_TIER_KEYS, 'revenue_tiers', issues);
    saleMatches(file.services, 'services', issues);
    saleMatches(file.revenue_tiers, 'revenue_tiers', issues);
    endpointsExist(file.services, issues);
    stepsMatchTheTable(file.quickstart_workflows, issues);
    for (const issue of issues) ctx.addIssue({ code: 'custom', ...issue });
  });

const DATA = loadDataFile(import.meta.url, './services.data.yaml', servicesFileSchema);

export const SERVICE_CATALOG: readonly ServiceDefinition[] = Object.freeze(DATA.services satisfies ServiceDefinition[]);

export const REVENUE_TIERS: readonly RevenueTierDefinition[] = Object.freeze(
  DATA.revenue_tiers satisfies RevenueTierDefinition[],
);

/** Spec "Quickstart workflows": the first two are self-serve, the other three need an enterprise key. */
export const QUICKSTART_WORKFLOWS: readonly QuickstartWorkflow[] = Object.freeze(
  DATA.quickstart_workflows satisfies QuickstartWorkflow[],
);
