/**
 * The information documents of /api/v1/agents/* (spec "Agent data API: information and
 * guidance"): each is a pure function of the catalogue data and a CatalogContext, so every
 * document quotes the same packs, meters, prices and links.
 */
import {
  AGENT_ENDPOINTS,
  DESCRIPTOR_PATHS,
  descriptorStatus,
  endpointStatus,
  findEndpoint,
  MCP_TOOLS,
  meterStatus,
  pathStatus,
  REGISTRY_TARGETS,
  toolStatus,
  type AgentEndpoint,
  type DescriptorName,
  type EndpointAuth,
  type RouteStatus,
} from './agent-surface.js';
import { agentBaseUrl, agentUrl, packCheckoutUrl, endpointUrl, type CatalogContext } from './catalog-context.js';
import { callToAction, enterprisePageUrl, fastestRevenueBody, operatorPilotBody, revenueTierEntries } from './catalog.document.js';
import { AGENT_ERRORS } from './error-catalog.js';
import { packValue, stepUpPack, type PackValue } from './guidance.document.js';
import { METERS } from './meters.js';
import { centsToUsd } from './money.js';
import { OBJECTIVE_PACK, OBJECTIVES, PACK_OBJECTIVE, RECOMMENDED_OBJECTIVE } from './objectives.js';
import { CREDIT_PACKS, findPack, STARTER_PACK_ID, type PackCapability } from './packs.js';
import { meterCostCents, OPERATOR_PILOT_DAYS, QUICKSTART_WORKFLOWS, SERVICE_CATALOG } from './services.js';

export const SERVICE_NAME = 'svc agent data API';
export const SERVICE_DESCRIPTION =
  'Machine-first venture intelligence: a ranked discovery list, company profiles and transparent company scores, ' +
  'billed per successful call from prepaid credits; enterprise tenants also get a private workspace, a tenant event stream and webhooks. ' +
  'The same operations are MCP tools.';

const usd = (cents: number) => centsToUsd(cents);
const usdText = (cents: number) => `${centsToUsd(cents)} USD`;

const AUTH_MEANING: Record<EndpointAuth, string> = {
  none: 'no key needed',
  key: 'agent key (x-api-key or Authorization: Bearer)',
  key_optional: 'works without a key; a key adds account details',
  tenant_key: 'tenant-bound service-account key (enterprise)',
};

export function meterEntries(ctx: CatalogContext) {
  return METERS.map((m) => ({
    meter: m.meter,
    price_usd: usd(ctx.prices[m.meter]),
    description: m.description,
    charged_on: m.charged_on,
    access: m.enterprise ? ('enterprise' as const) : ('self_serve' as const),
    /** planned while no operation that charges it is served. */
    status: meterStatus(m.meter),
  }));
}

function operationEntry(ctx: CatalogContext, e: AgentEndpoint) {
  return {
    name: e.name,
    method: e.method,
    url: agentUrl(ctx, e.path),
    group: e.group,
    auth: e.auth,
    summary: e.summary,
    meter: e.meter ?? null,
    price_usd: e.meter ? usd(ctx.prices[e.meter]) : null,
    status: endpointStatus(e),
  };
}

function authentication(ctx: CatalogContext) {
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
function descriptorMaps<K extends string>(ctx: CatalogContext, key: K) {
  const planned = descriptorUrls(ctx, 'planned');
  return {
    [key]: descriptorUrls(ctx, 'available'),
    ...(Object.keys(planned).length ? { [`planned_${key}`]: planned } : {}),
  } as Record<K, Partial<Record<DescriptorName, string>>> & Partial<Record<`planned_${K}`, Partial<Record<DescriptorName, string>>>>;
}

/** A status for several routes: planned when any of them is. */
const allOf = (...statuses: RouteStatus[]): RouteStatus => (statuses.includes('planned') ? 'planned' : 'available');

function workflowEntries(ctx: CatalogContext) {
  return QUICKSTART_WORKFLOWS.map((w) => {
    const charged = w.steps_mode === 'any_one' ? w.meters.slice(0, 1) : w.meters;
    const steps = w.steps.map((s) => ({
      method: s.method,
      url: agentUrl(ctx, s.path),
      mcp_tool: s.mcp_tool ?? null,
      meter: s.meter ?? null,
      price_usd: s.meter ? usd(ctx.prices[s.meter]) : null,
      status: pathStatus(s.path, s.method),
    }));
    return {
      key: w.key,
      name: w.name,
      access: w.access,
      meters: [...w.meters],
      estimated_default_cost_usd: usd(meterCostCents(charged)),
      estimated_cost_usd: usd(meterCostCents(charged, ctx.prices)),
      steps_mode: w.steps_mode,
      steps,
      status: allOf(...steps.map((s) => s.status)),
    };
  });
}

function paymentFlows(ctx: CatalogContext) {
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
      status: allOf(endpointStatus('setup_intent'), endpointStatus('attach_payment_method'), endpointStatus('topup_charge')),
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
      steps: [`GET ${endpointUrl(ctx, 'checkout_link')}?objective=…&pack_id=… (add key_id to bind it to a key): 303 to the hosted checkout, or {url} with Accept: application/json.`],
    },
  ];
}

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
    packs: CREDIT_PACKS.map((p) => ({ pack_id: p.pack_id, name: p.name, amount_usd: usd(p.amount_cents), credits_usd: usd(p.credits_cents) })),
    rate_limit: { requests_per_minute_per_key: ctx.rateLimitPerMinute },
    authentication: {
      ...authentication(ctx),
      note: 'Send your key to this endpoint to see the account, balance_usd, recent ledger entries and autopay state.',
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

// ---------------------------------------------------------------- value-proof

export function buildValueProof(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  const discovery = ctx.prices['read.discovery_top'];
  const evaluate = ctx.prices['read.company_profile'] + ctx.prices['read.company_score'];
  const proofCost = discovery + 3 * evaluate;
  return {
    summary: `${usdText(starter.amount_cents)} buys ${usdText(starter.credits_cents)} of credits: a discovery list plus three company evaluations cost ${usdText(proofCost)} at current prices.`,
    proof_run: {
      pack_id: starter.pack_id,
      steps: [
        { action: 'Get the ranked discovery list', method: 'GET', url: agentUrl(ctx, '/discovery/top?limit=10'), meter: 'read.discovery_top', price_usd: usd(discovery) },
        { action: 'Evaluate the top three companies (profile and score each)', method: 'GET', url: agentUrl(ctx, '/companies/{id}') + ' and ' + agentUrl(ctx, '/companies/{id}/score'), meter: 'read.company_profile + read.company_score', price_usd: usd(3 * evaluate) },
      ],
      cost_usd: usd(proofCost),
      credits_left_usd: usd(starter.credits_cents - proofCost),
    },
    packs: CREDIT_PACKS.map((p): PackValue => packValue(ctx, p)),
    workflows: workflowEntries(ctx).map(({ steps: _steps, ...w }) => w),
    guarantees: [
      'A call is charged only when it succeeds; the charge is committed before the data is sent.',
      'Concurrent calls never overspend: charges on one account are serialised against its credit ledger.',
      'Every purchase and charge is an event in the account ledger; replaying it reproduces the balance.',
      'Payments are fulfilled once per checkout session, however often the provider retries.',
    ],
    verify: [
      { what: 'Each paid response', how: 'Headers X-Credits-Charged (this call) and X-Credits-Balance (after it), in USD.' },
      { what: 'The balance and recent charges', how: `GET ${endpointUrl(ctx, 'status')} with your key: balance_usd and recent ledger entries.` },
      { what: 'A refused call', how: '402 insufficient_credits states meter, price_usd and balance_usd; nothing is charged.' },
      { what: 'The scoring model', how: `GET ${endpointUrl(ctx, 'model_health')}: model version; each score names its components.` },
    ],
  };
}

// ---------------------------------------------------------------- capabilities

const CAPABILITY_MEANING: Record<PackCapability, string> = {
  'entry-access': 'Paid reads with a self-served key: discovery, profiles, scores',
  quickstart: 'Sized for the quickstart workflows',
  'proof-workloads': 'Sized to prove value on real calls before a larger commitment',
  'production-usage': 'Sized for production workloads',
  autopay: 'Meant to run with autopay (automatic top-ups from a saved payment method)',
  'continuous-discovery': 'Sized for continuous, around-the-clock discovery and monitoring',
};

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
          price_usd: t.meter ? usd(ctx.prices[t.meter]) : null,
          status: toolStatus(t),
        };
      }),
    },
    meters: meterEntries(ctx),
    services: SERVICE_CATALOG.map((s) => ({ key: s.key, name: s.name, access: s.access, outcome: s.outcome })),
    pack_capabilities: tags.map((tag) => ({ capability: tag, meaning: CAPABILITY_MEANING[tag], packs: CREDIT_PACKS.filter((p) => p.capabilities.includes(tag)).map((p) => p.pack_id) })),
    payment_flows: paymentFlows(ctx),
    authentication: authentication(ctx),
    auth_levels: Object.entries(AUTH_MEANING).map(([auth, meaning]) => ({ auth, meaning })),
    ...descriptorMaps(ctx, 'descriptors'),
  };
}

// ---------------------------------------------------------------- quickstart

export function buildQuickstart(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  return {
    summary: `Four calls from nothing to data: get a key and a checkout, pay ${usdText(starter.amount_cents)}, check the balance, read the discovery list.`,
    first_calls: [
      { step: 1, method: 'POST', url: endpointUrl(ctx, 'pay'), body: fastestRevenueBody('quickstart'), result: 'key.id, key.api_key (shown once: store it) and starter_checkout.url' },
      { step: 2, method: 'GET', url: 'starter_checkout.url', body: null, result: `hosted checkout for ${starter.pack_id}: pay ${usdText(starter.amount_cents)}` },
      { step: 3, method: 'GET', url: endpointUrl(ctx, 'status'), body: null, result: `with x-api-key: balance_usd ${usd(starter.credits_cents)}` },
      { step: 4, method: 'GET', url: agentUrl(ctx, '/discovery/top?limit=10'), body: null, result: `ranked opportunities; X-Credits-Charged ${usd(ctx.prices['read.discovery_top']).toFixed(2)}` },
    ],
    headers: { 'x-api-key': '<key.api_key>', accept: 'application/json' },
    workflows: workflowEntries(ctx),
    check_call: `${endpointUrl(ctx, 'pay_check')}?objective=starter`,
    /** Null while the MCP endpoint is planned. */
    mcp_endpoint: endpointStatus('mcp') === 'available' ? endpointUrl(ctx, 'mcp') : null,
  };
}

// ---------------------------------------------------------------- offers

export function buildOffers(ctx: CatalogContext) {
  return {
    offers: [] as never[],
    offer_codes: 'No promotional offer codes are active; offer_code is null in every option.',
    volume_bonuses: CREDIT_PACKS.map((p) => ({
      pack_id: p.pack_id,
      name: p.name,
      amount_usd: usd(p.amount_cents),
      credits_usd: usd(p.credits_cents),
      bonus_usd: usd(p.credits_cents - p.amount_cents),
      bonus_percent: Math.round(((p.credits_cents - p.amount_cents) / p.amount_cents) * 1000) / 10,
      checkout_redirect_url: packCheckoutUrl(ctx, { objective: PACK_OBJECTIVE[p.pack_id], pack_id: p.pack_id, source: 'offers' }),
    })),
    note: 'Bonus credits are built into pack_99 and larger; they are granted with the purchase.',
  };
}

// ---------------------------------------------------------------- growth

export function buildGrowth(ctx: CatalogContext) {
  return {
    summary: 'Start with the 29 USD proof pack, move to continuous use with autopay, then to an operator pilot and an enterprise workspace.',
    ladder: revenueTierEntries(ctx, 'growth'),
    upgrade_paths: CREDIT_PACKS.filter((p) => stepUpPack(p.pack_id) !== p.pack_id).map((p) => {
      const next = findPack(stepUpPack(p.pack_id))!;
      return {
        from_pack_id: p.pack_id,
        to_pack_id: next.pack_id,
        extra_cost_usd: usd(next.amount_cents - p.amount_cents),
        extra_credits_usd: usd(next.credits_cents - p.credits_cents),
        bonus_usd: usd(next.credits_cents - next.amount_cents),
        checkout_redirect_url: packCheckoutUrl(ctx, { objective: PACK_OBJECTIVE[next.pack_id], pack_id: next.pack_id, source: 'growth' }),
      };
    }),
    autopay: {
      threshold_usd: usd(ctx.autopayThresholdCents),
      rule: `After a charge leaves the balance under ${usdText(ctx.autopayThresholdCents)} and a saved payment method exists, one top-up of the chosen pack is charged; never two at once.`,
      enable: [
        `POST ${endpointUrl(ctx, 'setup_intent')} and confirm the client_secret with the payment processor's SDK.`,
        `POST ${endpointUrl(ctx, 'attach_payment_method')}.`,
        `POST ${endpointUrl(ctx, 'topup_charge')} with {"payment_method_id": "...", "pack_id": "pack_499", "save_for_autopay": true}.`,
      ],
    },
    operator_pilot: {
      duration_days: OPERATOR_PILOT_DAYS,
      pack_id: OBJECTIVE_PACK.operator_pilot,
      request: `POST ${endpointUrl(ctx, 'leads')}`,
      checkout_redirect_url: packCheckoutUrl(ctx, { objective: 'operator_pilot', pack_id: OBJECTIVE_PACK.operator_pilot, source: 'growth' }),
    },
  };
}

// ---------------------------------------------------------------- acquisition

export function buildAcquisition(ctx: CatalogContext) {
  return {
    summary: 'An agent gets access without a human: one call returns a key and a hosted checkout.',
    flows: [
      ...paymentFlows(ctx),
      { key: 'signup', name: 'Sign up (starter checkout)', status: endpointStatus('signup'), steps: [`POST ${endpointUrl(ctx, 'signup')} (optional source_ref): a key with a pack_29 checkout.`] },
      {
        key: 'mcp_signup',
        name: 'Sign up from an MCP client',
        status: toolStatus(MCP_TOOLS.find((t) => t.name === 'svc.signup')!),
        steps: [`Call the tool svc.signup on ${endpointUrl(ctx, 'mcp')}.`],
      },
    ],
    check_call: {
      method: 'GET',
      url: `${endpointUrl(ctx, 'pay_check')}?objective=starter`,
      meaning: 'Says what POST /agents/pay would do (pack, amount, credits); creates nothing.',
    },
    objectives: OBJECTIVES.map((o) => ({ objective: o, pack_id: OBJECTIVE_PACK[o] })),
    recommended_objective: RECOMMENDED_OBJECTIVE,
    attribution: attributionParameters(),
    idempotency: 'POST /agents/pay and POST /agents/signup honour an Idempotency-Key header for 24 hours: a retry returns the first answer.',
  };
}

function attributionParameters() {
  return [
    { name: 'source', where: 'query of /agents/pay and /agents/checkout-link', meaning: 'where the buyer came from (a registry, a referrer, a campaign)' },
    { name: 'source_ref', where: 'body of /agents/pay, query of /agents/signup', meaning: 'free-form reference of the referrer' },
    { name: 'objective', where: 'query or body of /agents/pay, query of /agents/checkout-link', meaning: `what the buyer wants: ${OBJECTIVES.join(', ')}` },
  ];
}

// ---------------------------------------------------------------- recovery

export function buildRecovery(ctx: CatalogContext) {
  const codes = (status: number) => AGENT_ERRORS.filter((x) => x.status === status).map((x) => x.code);
  return {
    summary: 'Every error is problem+json with a stable code; its type URL points at the entry of the error catalogue.',
    by_status: [
      {
        status: 401,
        codes: codes(401),
        cause: 'No key, or a key that is malformed, unknown, revoked, from the platform surface or of the other environment.',
        steps: [
          'Send the key as x-api-key (or Authorization: Bearer).',
          `No working key: POST ${endpointUrl(ctx, 'pay')} issues a new account and key.`,
          `Key revoked or leaked: create another at ${endpointUrl(ctx, 'create_key')} and revoke the old one.`,
        ],
      },
      {
        status: 402,
        codes: codes(402),
        cause: 'The balance does not cover the meter price; nothing was charged.',
        steps: [
          'Read next_actions in the body (or the X-Next-Action and Link rel="payment" headers).',
          `Pay a checkout: GET ${packCheckoutUrl(ctx, { objective: 'starter', pack_id: STARTER_PACK_ID, source: 'recovery' })}&key_id=<your key id>.`,
          `Or charge a saved method: POST ${endpointUrl(ctx, 'topup_charge')} with save_for_autopay true to avoid the next 402.`,
          'Retry the call once the purchase is completed.',
        ],
      },
      {
        status: 403,
        codes: codes(403),
        cause: 'The key lacks a scope or is not bound to a tenant (workspace operations).',
        steps: [`For a workspace: POST ${endpointUrl(ctx, 'leads')} to ask for an enterprise workspace.`],
      },
      {
        status: 409,
        codes: codes(409),
        cause: 'A concurrent request changed the same resource.',
        steps: ['Retry the request; charges and purchases are never doubled.'],
      },
      {
        status: 429,
        codes: codes(429),
        cause: `More than ${ctx.rateLimitPerMinute} requests per minute on one key.`,
        steps: ['Wait retry_after seconds (Retry-After header), then retry.', 'Spread work over time; X-RateLimit-Remaining and X-RateLimit-Reset (Unix seconds) show the window.'],
      },
      {
        status: 503,
        codes: codes(503),
        cause: 'A store is unreachable; nothing was written or charged.',
        steps: ['Retry after Retry-After seconds with exponential back-off.'],
      },
    ],
    retry_safety: 'Paid reads are charged only on success, so retrying a failed read never double-charges. Use Idempotency-Key on POST /agents/pay and /agents/signup.',
    errors_catalog: endpointUrl(ctx, 'errors'),
  };
}

// ---------------------------------------------------------------- errors

export function buildErrorCatalog(ctx: CatalogContext) {
  const typeBase = `${endpointUrl(ctx, 'errors')}#`;
  return {
    format: {
      content_type: 'application/problem+json',
      fields: ['type', 'title', 'status', 'error', 'message', 'code'],
      note: 'type is this catalogue with the code as fragment; 400 VALIDATION_FAILED adds details[{path, message}]; 402 adds meter, price_usd, balance_usd and next_actions[]; 429 adds retry_after.',
    },
    type_base: typeBase,
    errors: [...AGENT_ERRORS].sort((a, b) => a.status - b.status).map((x) => ({
      code: x.code,
      status: x.status,
      error: x.error,
      type: `${typeBase}${x.code}`,
      meaning: x.meaning,
      action: x.action,
      ...(x.headers?.length ? { headers: [...x.headers] } : {}),
    })),
  };
}

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
      packs: CREDIT_PACKS.map((p) => ({ pack_id: p.pack_id, amount_usd: usd(p.amount_cents), credits_usd: usd(p.credits_cents) })),
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

// ---------------------------------------------------------------- trust

export function buildTrust(ctx: CatalogContext) {
  return {
    summary: 'What the service guarantees about keys, money, payments, data and deliveries.',
    keys: [
      `Keys look like svc_${ctx.env}_ + 32 random base62 characters + a 6-character checksum; a key of the other environment is refused.`,
      'Only the SHA-256 hash of a key is stored; the value is shown once, at issue.',
      'A key works only on the surface that issued it.',
      `Rotate without downtime: create a key at ${endpointUrl(ctx, 'create_key')}, switch, revoke the old one.`,
    ],
    billing: [
      'Amounts are kept in integer cents; no rounding drift.',
      'A call is charged only when it succeeds, and the charge is durable before the data is sent.',
      'Concurrent calls on one account never overspend; 402 is answered instead and nothing is charged.',
      'The credits ledger is event-sourced: every purchase and charge is an event and the balance can be replayed.',
    ],
    payments: [
      'Hosted checkout: card data never passes through this API.',
      'Provider webhooks are verified by signature over the raw body; fulfilment is idempotent by checkout session.',
      'Test deployments use a sandbox checkout served by the service itself.',
    ],
    data: [
      'Scores are 0-100 with named components and a model version (a transparent, documented model).',
      'Enterprise workspaces are isolated per tenant; tenant-bound keys see only their tenant.',
    ],
    webhooks: [
      'Deliveries are signed: X-Service-Signature: sha256=<hex HMAC-SHA256 of the body with your secret>.',
      'Failed deliveries are retried at +1 min, +5 min, +30 min and +2 h; only delivered events are charged.',
    ],
    limits: { requests_per_minute_per_key: ctx.rateLimitPerMinute, body_limit_bytes: 1024 * 1024 },
    audit: `GET ${endpointUrl(ctx, 'status')} with your key lists recent ledger entries.`,
  };
}

// ---------------------------------------------------------------- conversion

export function buildConversion(ctx: CatalogContext) {
  const starter = findPack(STARTER_PACK_ID)!;
  return {
    call_to_action: callToAction(ctx),
    funnel: [
      { stage: 'discover', action: 'Read the catalogue', method: 'GET', url: endpointUrl(ctx, 'catalog'), result: 'packs, services and prices' },
      { stage: 'check', action: 'Dry-run the purchase', method: 'GET', url: `${endpointUrl(ctx, 'pay_check')}?objective=starter`, result: 'what POST /agents/pay would do; nothing is created' },
      { stage: 'key', action: 'Get a key and a checkout', method: 'POST', url: endpointUrl(ctx, 'pay'), result: 'key.api_key and starter_checkout.url' },
      { stage: 'pay', action: `Pay ${usdText(starter.amount_cents)}`, method: 'GET', url: 'starter_checkout.url', result: `${usdText(starter.credits_cents)} of credits` },
      { stage: 'first_paid_call', action: 'Read the discovery list', method: 'GET', url: agentUrl(ctx, '/discovery/top?limit=10'), result: `data, charged ${usdText(ctx.prices['read.discovery_top'])}` },
      { stage: 'retain', action: 'Enable autopay', method: 'POST', url: endpointUrl(ctx, 'topup_charge'), result: 'top-ups before the balance runs out' },
    ],
    shortest_path: { endpoint: endpointUrl(ctx, 'pay'), method: 'POST', request_body_template: fastestRevenueBody('conversion') },
    operator_pilot_path: { endpoint: endpointUrl(ctx, 'pay'), method: 'POST', request_body_template: operatorPilotBody('conversion') },
    objections: [
      { question: 'Is it worth it before buying?', answer: `See ${endpointUrl(ctx, 'value_proof')}: what each pack buys at current prices.` },
      { question: 'What if a call fails?', answer: 'Failed calls are not charged.' },
      { question: 'What if credits run out mid-run?', answer: `402 with next_actions; autopay avoids it. See ${endpointUrl(ctx, 'recovery')}.` },
    ],
  };
}

// ---------------------------------------------------------------- traffic

export function buildTraffic(ctx: CatalogContext) {
  return {
    summary: 'How to send agents here and keep the attribution: links carry source and objective; registries get ready-made packs.',
    attribution: attributionParameters(),
    referral_links: CREDIT_PACKS.map((p) => ({
      pack_id: p.pack_id,
      url: packCheckoutUrl(ctx, { objective: PACK_OBJECTIVE[p.pack_id], pack_id: p.pack_id, source: 'your-ref' }),
    })),
    pay_link: `${endpointUrl(ctx, 'pay')}?objective=starter&source=your-ref`,
    rate_limits: {
      requests_per_minute_per_key: ctx.rateLimitPerMinute,
      headers: ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
      on_limit: '429 with Retry-After and retry_after (seconds)',
    },
    ...descriptorMaps(ctx, 'discovery_documents'),
    registry_packs: REGISTRY_TARGETS.map((t) => ({ target: t, url: `${endpointUrl(ctx, 'registry_pack')}/${t}` })),
  };
}

// ---------------------------------------------------------------- leads (GET: what to send)

export function buildLeadsInfo(ctx: CatalogContext) {
  const pack = findPack(OBJECTIVE_PACK.operator_pilot)!;
  return {
    purpose: `Ask for a ${OPERATOR_PILOT_DAYS}-day operator pilot or an enterprise workspace (tenant-bound keys, workspace, events and webhooks).`,
    method: 'POST' as const,
    url: endpointUrl(ctx, 'leads'),
    fields: [
      { name: 'contact_email', type: 'string (email)', required: true, description: 'Where to reach the operator' },
      { name: 'company', type: 'string', required: false, description: 'Organisation name' },
      { name: 'agent_name', type: 'string', required: false, description: 'The agent that will use the workspace' },
      { name: 'use_case', type: 'string', required: false, description: 'What the pilot should prove' },
      { name: 'objective', type: 'string', required: false, description: 'operator_pilot (default) or enterprise' },
      { name: 'pack_id', type: 'string', required: false, description: `Pack to fund it (default ${pack.pack_id})` },
      { name: 'expected_monthly_calls', type: 'integer', required: false, description: 'Expected paid calls per month' },
      { name: 'message', type: 'string', required: false, description: 'Anything else (up to 2000 characters)' },
      { name: 'source_ref', type: 'string', required: false, description: 'Referral reference' },
    ],
    example: {
      contact_email: 'operator@example.com',
      company: 'Example Ventures',
      agent_name: 'deal-flow-agent',
      use_case: 'screen inbound startups daily and keep memos in a shared workspace',
      objective: 'operator_pilot',
      pack_id: pack.pack_id,
      expected_monthly_calls: 5000,
    },
    response: '201 with data.lead_id, data.status "received", the pilot terms and the checkout link of the pack.',
    pilot: {
      duration_days: OPERATOR_PILOT_DAYS,
      pack_id: pack.pack_id,
      amount_usd: usd(pack.amount_cents),
      credits_usd: usd(pack.credits_cents),
      services: SERVICE_CATALOG.filter((s) => s.access === 'enterprise').map((s) => s.key),
    },
    self_serve_alternative: `Not ready for a pilot? POST ${endpointUrl(ctx, 'pay')} buys a ${usdText(findPack(STARTER_PACK_ID)!.amount_cents)} proof pack now.`,
    enterprise_page: enterprisePageUrl(ctx),
  };
}
