// Over 400 lines on purpose: this is a table (every route and MCP tool of the agent surface, one
// row each, with its meter, status and description) that the documents and tests read as one;
// split, a reader could no longer see the whole surface in one place.
/**
 * The agent data surface as a table (spec "Agent data API" endpoint tables and the MCP tool
 * table): the guidance documents, the manifest and the registry packs are all built from it, so
 * they list the same operations with the same meters. Paths are relative to /api/v1.
 *
 * A row the spec lists but this service does not serve yet is marked `planned` (none today). The
 * documents never offer a planned route as callable: an object describing one carries `status:
 * "planned"`, a name → URL map keeps it out and lists it under a `planned_…` sibling, and a
 * single link to it is null.
 */
import type { MeterName } from './meters.js';

export const AGENT_API_PREFIX = '/api/v1';

/**
 * Whether a route answers today. `planned` routes are in the spec's tables but not served yet
 * (they answer 404): the documents list them marked as planned, never as callable.
 */
export type RouteStatus = 'available' | 'planned';

/** Who may call: anyone, any agent key, a key optionally (richer answer with one), a tenant-bound key. */
export type EndpointAuth = 'none' | 'key' | 'key_optional' | 'tenant_key';
export type EndpointGroup = 'onboarding' | 'billing' | 'information' | 'data' | 'workspace' | 'mcp';

export interface AgentEndpoint {
  /** Stable name (the key of `endpoints` maps in guidance documents). */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  group: EndpointGroup;
  auth: EndpointAuth;
  summary: string;
  /** Charged per successful call. */
  meter?: MeterName;
  /** Absent: served (available). */
  status?: 'planned';
}

export const AGENT_ENDPOINTS: readonly AgentEndpoint[] = Object.freeze([
  {
    name: 'pay',
    method: 'POST',
    path: '/agents/pay',
    group: 'onboarding',
    auth: 'none',
    summary: 'Create an account and its first key; returns key.id, key.api_key and starter_checkout.url',
  },
  {
    name: 'pay_check',
    method: 'GET',
    path: '/agents/pay',
    group: 'onboarding',
    auth: 'none',
    summary: 'Check call: says what POST /agents/pay would do, creates nothing',
  },
  {
    name: 'signup',
    method: 'POST',
    path: '/agents/signup',
    group: 'onboarding',
    auth: 'none',
    summary: 'Issue a key with a pack_29 starter checkout',
  },
  {
    name: 'checkout_link',
    method: 'GET',
    path: '/agents/checkout-link',
    group: 'onboarding',
    auth: 'none',
    summary:
      'Hosted checkout for a pack (303 redirect, or {url} for Accept: application/json); key_id (or the key itself) binds it to that key’s account',
  },
  {
    name: 'keys',
    method: 'GET',
    path: '/agents/keys',
    group: 'onboarding',
    auth: 'key',
    summary: 'List the keys of the account',
  },
  {
    name: 'create_key',
    method: 'POST',
    path: '/agents/keys',
    group: 'onboarding',
    auth: 'key',
    summary: 'Create another key for the same account (rotation)',
  },
  {
    name: 'revoke_key',
    method: 'DELETE',
    path: '/agents/keys/{id}',
    group: 'onboarding',
    auth: 'key',
    summary: 'Revoke a key by id',
  },
  {
    name: 'setup_intent',
    method: 'POST',
    path: '/billing/setup-intent',
    group: 'billing',
    auth: 'key',
    summary: 'Start saving a payment method for off-session charges; returns client_secret',
  },
  {
    name: 'attach_payment_method',
    method: 'POST',
    path: '/billing/payment-methods/attach',
    group: 'billing',
    auth: 'key',
    summary: 'Attach the confirmed payment method to the account',
  },
  {
    name: 'topup_charge',
    method: 'POST',
    path: '/billing/topups/charge',
    group: 'billing',
    auth: 'key',
    summary: 'Charge a saved payment method for a pack; save_for_autopay enables automatic recharge',
  },
  {
    name: 'topup_checkout',
    method: 'POST',
    path: '/billing/topups/checkout',
    group: 'billing',
    auth: 'key',
    summary: 'Hosted checkout fallback for a top-up',
  },
  {
    name: 'autopay',
    method: 'GET',
    path: '/billing/autopay',
    group: 'billing',
    auth: 'key',
    summary: 'Autopay state (threshold, pack, saved method) and balance',
  },
  {
    name: 'disable_autopay',
    method: 'DELETE',
    path: '/billing/autopay',
    group: 'billing',
    auth: 'key',
    summary: 'Turn autopay off',
  },
  {
    name: 'ledger',
    method: 'GET',
    path: '/billing/ledger',
    group: 'billing',
    auth: 'key',
    summary:
      'The account’s credits ledger, oldest first, after a cursor: each purchase, grant, charge and refund with the balance after it',
  },
  {
    name: 'catalog',
    method: 'GET',
    path: '/agents/catalog',
    group: 'information',
    auth: 'none',
    summary: 'Credit packs, service catalogue, revenue tiers and purchase paths',
  },
  {
    name: 'status',
    method: 'GET',
    path: '/agents/status',
    group: 'information',
    auth: 'key_optional',
    summary:
      'Service status, meters and prices; with a key also the account, balance_usd, recent ledger entries and autopay',
  },
  {
    name: 'value_proof',
    method: 'GET',
    path: '/agents/value-proof',
    group: 'information',
    auth: 'none',
    summary: 'What each pack buys at current prices, and how every charge can be verified',
  },
  {
    name: 'quote',
    method: 'GET',
    path: '/agents/quote',
    group: 'information',
    auth: 'none',
    summary: 'Purchase guidance for an objective (or a pack), with checkout links',
  },
  {
    name: 'recommend_tier',
    method: 'GET',
    path: '/agents/recommend-tier',
    group: 'information',
    auth: 'none',
    summary: 'Purchase guidance; aggressive=true recommends the next larger pack',
  },
  {
    name: 'capabilities',
    method: 'GET',
    path: '/agents/capabilities',
    group: 'information',
    auth: 'none',
    summary: 'What the API can do: operations, MCP tools, meters, payment flows',
  },
  {
    name: 'quickstart',
    method: 'GET',
    path: '/agents/quickstart',
    group: 'information',
    auth: 'none',
    summary: 'First calls and the five quickstart workflows with their costs',
  },
  {
    name: 'offers',
    method: 'GET',
    path: '/agents/offers',
    group: 'information',
    auth: 'none',
    summary: 'Active offers and the volume bonuses built into the packs',
  },
  {
    name: 'growth',
    method: 'GET',
    path: '/agents/growth',
    group: 'information',
    auth: 'none',
    summary: 'From proof to continuous use: the tier ladder, autopay and upgrade paths',
  },
  {
    name: 'acquisition',
    method: 'GET',
    path: '/agents/acquisition',
    group: 'information',
    auth: 'none',
    summary: 'Ways to get access and pay: instant, direct charge, redirect, MCP signup',
  },
  {
    name: 'recovery',
    method: 'GET',
    path: '/agents/recovery',
    group: 'information',
    auth: 'none',
    summary: 'How to recover from 401, 402, 403, 409, 429 and 503',
  },
  {
    name: 'errors',
    method: 'GET',
    path: '/agents/errors',
    group: 'information',
    auth: 'none',
    summary: 'The error catalogue: every code with its status and meaning',
  },
  {
    name: 'manifest',
    method: 'GET',
    path: '/agents/manifest',
    group: 'information',
    auth: 'none',
    summary: 'Machine-readable manifest of the agent surface',
  },
  {
    name: 'trust',
    method: 'GET',
    path: '/agents/trust',
    group: 'information',
    auth: 'none',
    summary: 'Security, billing and data guarantees',
  },
  {
    name: 'conversion',
    method: 'GET',
    path: '/agents/conversion',
    group: 'information',
    auth: 'none',
    summary: 'The shortest path from first request to first paid call',
  },
  {
    name: 'traffic',
    method: 'GET',
    path: '/agents/traffic',
    group: 'information',
    auth: 'none',
    summary: 'Attribution parameters, referral links, rate limits and discovery documents',
  },
  {
    name: 'registry_pack',
    method: 'GET',
    path: '/agents/registry-pack',
    group: 'information',
    auth: 'none',
    summary: 'Registration material for agent registries: index of targets',
  },
  {
    name: 'registry_pack_target',
    method: 'GET',
    path: '/agents/registry-pack/{target}',
    group: 'information',
    auth: 'none',
    summary: 'Registration material for one registry: openai, mcp or generic',
  },
  {
    name: 'leads_info',
    method: 'GET',
    path: '/agents/leads',
    group: 'information',
    auth: 'none',
    summary: 'What an operator-pilot lead submission carries',
  },
  {
    name: 'leads',
    method: 'POST',
    path: '/agents/leads',
    group: 'information',
    auth: 'none',
    summary: 'Submit an operator-pilot lead (201 with lead_id)',
  },
  {
    name: 'discovery_top',
    method: 'GET',
    path: '/discovery/top',
    group: 'data',
    auth: 'key',
    summary: 'Ranked list of startup opportunities (query limit)',
    meter: 'read.discovery_top',
  },
  {
    name: 'company_profile',
    method: 'GET',
    path: '/companies/{id}',
    group: 'data',
    auth: 'key',
    summary: 'Company profile',
    meter: 'read.company_profile',
  },
  {
    name: 'company_score',
    method: 'GET',
    path: '/companies/{id}/score',
    group: 'data',
    auth: 'key',
    summary: 'Company score (0-100, named components, model version)',
    meter: 'read.company_score',
  },
  {
    name: 'model_health',
    method: 'GET',
    path: '/model/health',
    group: 'data',
    auth: 'none',
    summary: 'Scoring model version and data freshness',
  },
  {
    name: 'workspace_companies',
    method: 'GET',
    path: '/workspace/companies',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'List tenant companies',
    meter: 'read.workspace.company',
  },
  {
    name: 'workspace_add_company',
    method: 'POST',
    path: '/workspace/companies',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Add a company (by company_id of the discovery universe, or name and domain)',
    meter: 'write.workspace.note',
  },
  {
    name: 'workspace_company',
    method: 'GET',
    path: '/workspace/companies/{id}',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'One workspace company',
    meter: 'read.workspace.company',
  },
  {
    name: 'workspace_followups',
    method: 'GET',
    path: '/workspace/companies/{id}/follow-ups',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'A company’s follow-ups, soonest due first',
    meter: 'read.workspace.company',
  },
  {
    name: 'workspace_memo',
    method: 'GET',
    path: '/workspace/companies/{id}/memo',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Read the current memo',
    meter: 'read.workspace.memo',
  },
  {
    name: 'workspace_update_memo',
    method: 'PATCH',
    path: '/workspace/companies/{id}/memo',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Update the memo',
    meter: 'write.workspace.note',
  },
  {
    name: 'workspace_memo_versions',
    method: 'GET',
    path: '/workspace/companies/{id}/memo/versions',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'A memo’s versions, newest first',
    meter: 'read.workspace.memo',
  },
  {
    name: 'workspace_deals',
    method: 'GET',
    path: '/workspace/deals',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'List deals',
    meter: 'read.workspace.company',
  },
  {
    name: 'workspace_create_deal',
    method: 'POST',
    path: '/workspace/deals',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Create a deal for a workspace company',
    meter: 'write.workspace.note',
  },
  {
    name: 'workspace_update_deal',
    method: 'PATCH',
    path: '/workspace/deals/{id}',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Update a deal',
    meter: 'write.workspace.note',
  },
  {
    name: 'workspace_followup',
    method: 'POST',
    path: '/workspace/companies/{id}/follow-ups',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Create a follow-up; with your own key in the body, create or update it (idempotent)',
    meter: 'write.workspace.followup',
  },
  {
    name: 'workspace_followup_by_key',
    method: 'PUT',
    path: '/workspace/companies/{id}/follow-ups/{key}',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Create or update the follow-up with your key (the MCP tool’s form)',
    meter: 'write.workspace.followup',
  },
  {
    name: 'workspace_events',
    method: 'GET',
    path: '/workspace/events',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Read the tenant event stream',
    meter: 'read.workspace.events',
  },
  {
    name: 'workspace_create_webhook',
    method: 'POST',
    path: '/workspace/webhooks/subscriptions',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Create a webhook subscription; each successful push is charged deliver.workspace.webhook',
    meter: 'write.workspace.webhook',
  },
  {
    name: 'workspace_webhooks',
    method: 'GET',
    path: '/workspace/webhooks/subscriptions',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'List webhook subscriptions (with held_for_credits)',
  },
  {
    name: 'workspace_delete_webhook',
    method: 'DELETE',
    path: '/workspace/webhooks/subscriptions/{id}',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'Delete a webhook subscription',
  },
  {
    name: 'workspace_webhook_deliveries',
    method: 'GET',
    path: '/workspace/webhooks/deliveries',
    group: 'workspace',
    auth: 'tenant_key',
    summary: 'List webhook deliveries with their attempts',
  },
  {
    name: 'mcp',
    method: 'POST',
    path: '/mcp',
    group: 'mcp',
    auth: 'key_optional',
    summary: 'Remote MCP endpoint: the same operations as tools',
  },
] satisfies AgentEndpoint[]);

export interface McpTool {
  name: string;
  /** The HTTP operation it is equivalent to (AGENT_ENDPOINTS name). */
  endpoint: string;
  description: string;
  /** The operation's meter and auth: taken from its row, never restated here. */
  meter?: MeterName;
  auth: EndpointAuth;
}

/** The spec's MCP tool table (names exact); the arguments are in libs/agent-data/src/tools. */
const MCP_TOOL_ROWS = Object.freeze([
  {
    name: 'svc.signup',
    endpoint: 'signup',
    description: 'Issue an API key with a pack_29 starter checkout',
  },
  {
    name: 'svc.get_top_discovery',
    endpoint: 'discovery_top',
    description: 'Ranked list of startup opportunities',
  },
  {
    name: 'svc.get_company',
    endpoint: 'company_profile',
    description: 'Company profile by id',
  },
  {
    name: 'svc.get_company_score',
    endpoint: 'company_score',
    description: 'Company score by id',
  },
  {
    name: 'svc.workspace.list_companies',
    endpoint: 'workspace_companies',
    description: 'List tenant workspace companies',
  },
  {
    name: 'svc.workspace.get_memo',
    endpoint: 'workspace_memo',
    description: 'Read the memo of a workspace company',
  },
  {
    name: 'svc.workspace.update_memo',
    endpoint: 'workspace_update_memo',
    description: 'Update the memo of a workspace company',
  },
  {
    name: 'svc.workspace.update_deal',
    endpoint: 'workspace_update_deal',
    description: 'Update a deal',
  },
  {
    name: 'svc.workspace.list_deals',
    endpoint: 'workspace_deals',
    description: 'List deals',
  },
  {
    name: 'svc.workspace.upsert_followup',
    endpoint: 'workspace_followup_by_key',
    description: 'Create or update a follow-up',
  },
  {
    name: 'svc.workspace.list_events',
    endpoint: 'workspace_events',
    description: 'Read the tenant event stream',
  },
  {
    name: 'svc.workspace.create_webhook',
    endpoint: 'workspace_create_webhook',
    description: 'Create a webhook subscription',
  },
  {
    name: 'svc.workspace.list_webhook_deliveries',
    endpoint: 'workspace_webhook_deliveries',
    description: 'List webhook deliveries',
  },
] satisfies Array<Pick<McpTool, 'name' | 'endpoint' | 'description'>>);

export const MCP_TOOLS: readonly McpTool[] = Object.freeze(
  MCP_TOOL_ROWS.map(({ name, endpoint, description }): McpTool => {
    const { meter, auth } = findEndpoint(endpoint);
    return { name, endpoint, description, ...(meter ? { meter } : {}), auth };
  }),
);

export function findEndpoint(name: string): AgentEndpoint {
  const e = AGENT_ENDPOINTS.find((x) => x.name === name);
  if (!e) throw new Error(`unknown agent endpoint ${name}`);
  return e;
}

/** Whether the operation is served today. */
export function endpointStatus(endpoint: AgentEndpoint | string): RouteStatus {
  return (typeof endpoint === 'string' ? findEndpoint(endpoint) : endpoint).status ?? 'available';
}

/**
 * Whether a path under /api/v1 (templated as in the table, query ignored) is served with
 * `method` (any method when none is given); paths the table does not list are taken as served.
 */
export function pathStatus(path: string, method?: AgentEndpoint['method']): RouteStatus {
  const bare = path.split('?')[0]!;
  const rows = AGENT_ENDPOINTS.filter((e) => e.path === bare && (!method || e.method === method));
  return rows.length && rows.every((e) => endpointStatus(e) === 'planned') ? 'planned' : 'available';
}

/** Meters charged by something other than an operation of the table: the operation that sets it up. */
const METER_SET_UP_BY: Partial<Record<MeterName, string>> = { 'deliver.workspace.webhook': 'workspace_create_webhook' };

/** A meter is charged today once one operation that charges it (or sets its charges up) is served. */
export function meterStatus(meter: MeterName): RouteStatus {
  const via = METER_SET_UP_BY[meter];
  const rows = AGENT_ENDPOINTS.filter((e) => e.meter === meter || e.name === via);
  return rows.some((e) => endpointStatus(e) === 'available') ? 'available' : 'planned';
}

/** A tool can be called once the MCP endpoint and the operation it stands for are both served. */
export function toolStatus(tool: McpTool): RouteStatus {
  return endpointStatus('mcp') === 'available' && endpointStatus(tool.endpoint) === 'available'
    ? 'available'
    : 'planned';
}

/** Descriptor documents of the spec, at the site root. */
export const DESCRIPTOR_PATHS = Object.freeze({
  openapi: '/docs/api/openapi.v1.yaml',
  llms_txt: '/llms.txt',
  agent_feed: '/agent-feed.json',
  ai_plugin: '/.well-known/ai-plugin.json',
  service_agent: '/.well-known/service-agent',
  mcp_server: '/mcp/server.json',
  well_known_mcp_server: '/.well-known/mcp-server.json',
});
export type DescriptorName = keyof typeof DESCRIPTOR_PATHS;

/** Descriptors not served yet (404): none, all are (descriptors/site-documents.ts and the OpenAPI document). */
export const PLANNED_DESCRIPTORS: ReadonlySet<DescriptorName> = new Set<DescriptorName>([]);

export function descriptorStatus(name: DescriptorName): RouteStatus {
  return PLANNED_DESCRIPTORS.has(name) ? 'planned' : 'available';
}

/** Targets of /agents/registry-pack/{target}. */
export const REGISTRY_TARGETS = ['openai', 'mcp', 'generic'] as const;
export type RegistryTarget = (typeof REGISTRY_TARGETS)[number];

/**
 * Routes under /api/v1 that the router serves but the documents (agent feed, llms.txt, the
 * endpoint maps) deliberately do not list, each with the reason. Every other route is a row of
 * AGENT_ENDPOINTS (test/agent-data/published-tools.int.spec.ts holds both lists to the router).
 */
export const UNLISTED_AGENT_ROUTES: ReadonlyArray<{ method: AgentEndpoint['method']; path: string; reason: string }> =
  Object.freeze([
    { method: 'GET', path: '/mcp', reason: 'Answers 405: the MCP endpoint is stateless, POST only (listed as mcp).' },
    { method: 'DELETE', path: '/mcp', reason: 'Answers 405: no MCP session to end (listed as mcp).' },
    {
      method: 'GET',
      path: '/billing/checkout/success',
      reason: 'The page a checkout returns the payer’s browser to; reached from a checkout, not called.',
    },
    {
      method: 'GET',
      path: '/billing/checkout/cancelled',
      reason: 'The page a cancelled checkout returns the payer’s browser to; reached from a checkout, not called.',
    },
    {
      method: 'GET',
      path: '/billing/sandbox/checkout/{id}',
      reason: 'The sandbox provider’s hosted checkout page (Stripe’s in live use): the URL a checkout answer gives.',
    },
    {
      method: 'POST',
      path: '/billing/sandbox/checkout/{id}/pay',
      reason: 'The form post of the sandbox checkout page, reached from that page.',
    },
    {
      method: 'POST',
      path: '/billing/sandbox/setup-intents/{id}/confirm',
      reason: 'The sandbox stand-in for confirming a SetupIntent in Stripe’s client library.',
    },
    {
      method: 'POST',
      path: '/billing/webhooks/stripe',
      reason: 'Stripe’s signed fulfilment webhook: called by Stripe only.',
    },
  ]);
