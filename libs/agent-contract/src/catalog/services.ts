/**
 * The service catalogue, revenue tiers and quickstart workflows (spec "Service catalogue entry",
 * "Revenue tier entry", "Quickstart workflows"). Pure data in cents; the documents add URLs and
 * convert to US dollars. A cost is the sum of the prices of the meters one run charges once.
 */
import { DEFAULT_METER_PRICES_CENTS, type MeterName, type MeterPrices } from './meters.js';
import type { Objective } from './objectives.js';
import type { PackId } from './packs.js';

/** The operator pilot's length (spec "Limits", item 7). */
export const OPERATOR_PILOT_DAYS = 14;

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

export const SERVICE_CATALOG: readonly ServiceDefinition[] = Object.freeze([
  {
    key: 'find',
    name: 'Find top opportunities',
    access: 'self_serve',
    revenue_priority: 'now',
    pricing_model: 'prepaid_per_call',
    outcome: 'A ranked list of startup opportunities to act on, in one call',
    primary_meters: ['read.discovery_top'],
    included_endpoints: ['/api/v1/discovery/top'],
    included_mcp_methods: ['svc.get_top_discovery'],
    includes: ['Ranked discovery list (query limit)', 'Score and rank per item', 'Charged only when the call succeeds'],
    pack_id: 'pack_29',
    objective: 'starter',
  },
  {
    key: 'evaluate',
    name: 'Evaluate a company',
    access: 'self_serve',
    revenue_priority: 'now',
    pricing_model: 'prepaid_per_call',
    outcome: 'A company profile and a transparent 0-100 score with named components',
    primary_meters: ['read.company_profile', 'read.company_score'],
    included_endpoints: ['/api/v1/companies/{id}', '/api/v1/companies/{id}/score'],
    included_mcp_methods: ['svc.get_company', 'svc.get_company_score'],
    includes: ['Company profile', 'Score components and model version', 'Charged only when the call succeeds'],
    pack_id: 'pack_29',
    objective: 'starter',
  },
  {
    key: 'operator_pilot',
    name: `Operator pilot (${OPERATOR_PILOT_DAYS} days)`,
    access: 'enterprise',
    revenue_priority: 'expansion',
    pricing_model: 'prepaid_per_call',
    outcome: `A ${OPERATOR_PILOT_DAYS}-day pilot of the full loop: find, evaluate, record the memo and schedule the follow-up in a tenant workspace`,
    primary_meters: [
      'read.discovery_top',
      'read.company_profile',
      'read.company_score',
      'write.workspace.note',
      'write.workspace.followup',
    ],
    included_endpoints: [
      '/api/v1/discovery/top',
      '/api/v1/companies/{id}',
      '/api/v1/companies/{id}/score',
      '/api/v1/workspace/companies/{id}/memo',
      '/api/v1/workspace/companies/{id}/follow-ups',
    ],
    included_mcp_methods: [
      'svc.get_top_discovery',
      'svc.get_company',
      'svc.get_company_score',
      'svc.workspace.update_memo',
      'svc.workspace.upsert_followup',
    ],
    includes: [
      `${OPERATOR_PILOT_DAYS}-day pilot, started when pack_2499 is paid: the paying key reaches the tenant workspace at once`,
      'Memo and follow-up writes',
      'Funded by pack_2499 (3000 USD of credits)',
      'After the pilot the workspace is read-only (data and keys kept) until pack_10000 is bought',
    ],
    pack_id: 'pack_2499',
    objective: 'operator_pilot',
  },
  {
    key: 'monitor',
    name: 'Monitor with events and webhooks',
    access: 'enterprise',
    revenue_priority: 'expansion',
    pricing_model: 'prepaid_per_event',
    outcome: 'Workspace changes as a tenant event stream and as signed webhook pushes',
    primary_meters: ['read.workspace.events', 'write.workspace.webhook', 'deliver.workspace.webhook'],
    included_endpoints: [
      '/api/v1/workspace/events',
      '/api/v1/workspace/webhooks/subscriptions',
      '/api/v1/workspace/webhooks/deliveries',
    ],
    included_mcp_methods: [
      'svc.workspace.list_events',
      'svc.workspace.create_webhook',
      'svc.workspace.list_webhook_deliveries',
    ],
    includes: [
      'Tenant event stream',
      'Signed webhook deliveries with retries',
      'Charged per delivered event',
      // The stream and pushes are a workspace's: its buy-now link sells the pack that opens one.
      `Starts with the ${OPERATOR_PILOT_DAYS}-day operator pilot (pack_2499); enterprise (pack_10000) keeps it writable`,
    ],
    pack_id: 'pack_2499',
    objective: 'operator_pilot',
  },
  {
    key: 'workspace_automation',
    name: 'Workspace automation',
    access: 'enterprise',
    revenue_priority: 'enterprise',
    pricing_model: 'enterprise_commit',
    outcome: 'A private workspace your agents read and update: companies, memos, deals, follow-ups and events',
    primary_meters: [
      'read.workspace.company',
      'read.workspace.memo',
      'write.workspace.note',
      'write.workspace.followup',
      'read.workspace.events',
    ],
    included_endpoints: [
      '/api/v1/workspace/companies',
      '/api/v1/workspace/companies/{id}/memo',
      '/api/v1/workspace/deals',
      '/api/v1/workspace/deals/{id}',
      '/api/v1/workspace/companies/{id}/follow-ups',
      '/api/v1/workspace/events',
    ],
    included_mcp_methods: [
      'svc.workspace.list_companies',
      'svc.workspace.get_memo',
      'svc.workspace.update_memo',
      'svc.workspace.list_deals',
      'svc.workspace.update_deal',
      'svc.workspace.upsert_followup',
      'svc.workspace.list_events',
    ],
    includes: [
      'Tenant workspace opened for the paying key at fulfilment',
      'Tenant-bound service-account keys',
      'Companies, memos, deals and follow-ups',
      'Tenant event stream',
      'Autopay and continuous discovery',
    ],
    pack_id: 'pack_10000',
    objective: 'enterprise',
  },
] satisfies ServiceDefinition[]);

/** Placeholder for the configured autopay threshold ("25 USD") in revenue tier texts. */
export const AUTOPAY_THRESHOLD_PLACEHOLDER = '{autopay_threshold}';

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

export const REVENUE_TIERS: readonly RevenueTierDefinition[] = Object.freeze([
  {
    key: 'builder_proof',
    name: 'Builder proof',
    buyer: 'An agent or its builder proving value on real data',
    pricing_model: 'prepaid_per_call',
    best_for: 'A first paid run today: a discovery list and a few evaluations',
    primary_service_keys: ['find', 'evaluate'],
    included: [
      'pack_29: 29 USD of credits for 29 USD',
      'Key and checkout in one call',
      'Discovery, profiles and scores',
    ],
    pack_id: 'pack_29',
    objective: 'starter',
  },
  {
    key: 'builder_continuous',
    name: 'Builder continuous',
    buyer: 'An agent running around the clock',
    pricing_model: 'prepaid_per_call',
    best_for: 'Continuous discovery and evaluation with autopay top-ups',
    // Not `monitor`: events and webhooks are a workspace's, which pack_499 does not open.
    primary_service_keys: ['find', 'evaluate'],
    included: [
      'pack_499: 575 USD of credits for 499 USD',
      `Autopay when the balance falls under ${AUTOPAY_THRESHOLD_PLACEHOLDER}`,
      'Everything in builder proof',
    ],
    pack_id: 'pack_499',
    objective: 'growth',
  },
  {
    key: 'operator_pilot',
    name: `Operator pilot (${OPERATOR_PILOT_DAYS} days)`,
    buyer: 'A team operating agents on its deal flow',
    pricing_model: 'prepaid_per_call',
    best_for: 'Proving the full loop on a tenant workspace before a commitment',
    primary_service_keys: ['operator_pilot', 'find', 'evaluate'],
    included: [
      'pack_2499: 3000 USD of credits for 2499 USD',
      `${OPERATOR_PILOT_DAYS}-day pilot with a tenant workspace, opened for the paying key at fulfilment`,
      'Memo and follow-up writes',
      'Read-only after the pilot until pack_10000 is bought (data and keys kept)',
    ],
    pack_id: 'pack_2499',
    objective: 'operator_pilot',
  },
  {
    key: 'enterprise_workspace',
    name: 'Enterprise workspace',
    buyer: 'An organisation automating its investment workflow',
    pricing_model: 'enterprise_commit',
    best_for: 'Production use: private workspace, events, webhooks and autopay',
    primary_service_keys: ['workspace_automation', 'monitor', 'operator_pilot'],
    included: [
      'pack_10000: 12500 USD of credits for 10000 USD',
      'Tenant workspace opened for the paying key at fulfilment (its account becomes the tenant’s)',
      'Tenant-bound service-account keys',
      'Events and signed webhooks',
      'Autopay',
    ],
    pack_id: 'pack_10000',
    objective: 'enterprise',
  },
] satisfies RevenueTierDefinition[]);

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

/** Spec "Quickstart workflows": the first two are self-serve, the other three need an enterprise key. */
export const QUICKSTART_WORKFLOWS: readonly QuickstartWorkflow[] = Object.freeze([
  {
    key: 'find_top_opportunities',
    steps_mode: 'sequence',
    name: 'Find top opportunities',
    access: 'self_serve',
    meters: ['read.discovery_top'],
    steps: [
      {
        method: 'GET',
        path: '/discovery/top?limit=10',
        mcp_tool: 'svc.get_top_discovery',
        meter: 'read.discovery_top',
      },
    ],
  },
  {
    key: 'evaluate_company',
    steps_mode: 'sequence',
    name: 'Evaluate one company',
    access: 'self_serve',
    meters: ['read.company_profile', 'read.company_score'],
    steps: [
      { method: 'GET', path: '/companies/{id}', mcp_tool: 'svc.get_company', meter: 'read.company_profile' },
      { method: 'GET', path: '/companies/{id}/score', mcp_tool: 'svc.get_company_score', meter: 'read.company_score' },
    ],
  },
  {
    key: 'read_workspace',
    steps_mode: 'sequence',
    name: 'Read a tenant workspace',
    access: 'enterprise',
    meters: ['read.workspace.company', 'read.workspace.memo'],
    steps: [
      {
        method: 'GET',
        path: '/workspace/companies',
        mcp_tool: 'svc.workspace.list_companies',
        meter: 'read.workspace.company',
      },
      {
        method: 'GET',
        path: '/workspace/companies/{id}/memo',
        mcp_tool: 'svc.workspace.get_memo',
        meter: 'read.workspace.memo',
      },
    ],
  },
  {
    key: 'update_deal_or_memo',
    name: 'Update a deal or memo',
    access: 'enterprise',
    steps_mode: 'any_one',
    meters: ['write.workspace.note'],
    steps: [
      {
        method: 'PATCH',
        path: '/workspace/companies/{id}/memo',
        mcp_tool: 'svc.workspace.update_memo',
        meter: 'write.workspace.note',
      },
      {
        method: 'PATCH',
        path: '/workspace/deals/{id}',
        mcp_tool: 'svc.workspace.update_deal',
        meter: 'write.workspace.note',
      },
    ],
  },
  {
    key: 'monitor_events_webhooks',
    steps_mode: 'sequence',
    name: 'Monitor with events and webhooks',
    access: 'enterprise',
    meters: ['read.workspace.events', 'write.workspace.webhook', 'deliver.workspace.webhook'],
    steps: [
      {
        method: 'GET',
        path: '/workspace/events',
        mcp_tool: 'svc.workspace.list_events',
        meter: 'read.workspace.events',
      },
      {
        method: 'POST',
        path: '/workspace/webhooks/subscriptions',
        mcp_tool: 'svc.workspace.create_webhook',
        meter: 'write.workspace.webhook',
      },
    ],
  },
] satisfies QuickstartWorkflow[]);
