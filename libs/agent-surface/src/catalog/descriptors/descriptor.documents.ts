/**
 * The JSON descriptors at the site root: /agent-feed.json, /.well-known/ai-plugin.json,
 * /.well-known/service-agent and the MCP registry's server.json (/mcp/server.json and
 * /.well-known/mcp-server.json). Pure functions of the catalogue context, built from the same
 * tables as the /api/v1/agents documents (endpoints, MCP tools, packs, services, effective meter
 * prices), so a price or a path changed there changes here too. No `as_of`: a descriptor is the
 * same bytes until a deploy or a configuration change, which is what its ETag stands for.
 */
import {
  AGENT_ENDPOINTS,
  agentBaseUrl,
  type CatalogContext,
  DESCRIPTOR_PATHS,
  type DescriptorName,
  descriptorStatus,
  endpointStatus,
  endpointUrl,
  findEndpoint,
  MCP_TOOLS,
  METERS,
} from '#agent-contract';
import { catalogPackEntries, serviceCatalogEntries } from '../catalog.document.js';
import {
  authentication,
  descriptorMaps,
  meterEntries,
  operationEntry,
  SERVICE_DESCRIPTION,
  SERVICE_NAME,
  SERVICE_SHORT_DESCRIPTION,
  SERVICE_VERSION,
} from '../information.parts.js';
import { buildRegistryPack } from '../registry-pack.document.js';
import { centsToUsd } from '#kernel';

/** The pages the descriptors link besides the API: the logo and the terms (site-pages.document.ts). */
export const SITE_PAGE_PATHS = Object.freeze({ logo: '/logo.svg', legal: '/legal' });

/** Stands in for SVC_CONTACT_EMAIL until the operator sets it (a reserved example domain). */
export const PLACEHOLDER_CONTACT_EMAIL = 'support@example.com';

/** The MCP registry's server.json schema version this service's entry follows (test/agent-data/fixtures). */
export const MCP_SERVER_SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Source value of checkout links in the descriptors (attribution). */
const SOURCE = 'agent_feed';

export const contactEmail = (ctx: CatalogContext) => ctx.contactEmail ?? PLACEHOLDER_CONTACT_EMAIL;
export const descriptorUrl = (ctx: CatalogContext, name: DescriptorName) => `${ctx.baseUrl}${DESCRIPTOR_PATHS[name]}`;
export const sitePageUrl = (ctx: CatalogContext, name: keyof typeof SITE_PAGE_PATHS) =>
  `${ctx.baseUrl}${SITE_PAGE_PATHS[name]}`;
/** The interactive API reference (libs/http DocsController). */
export const apiReferenceUrl = (ctx: CatalogContext) => `${ctx.baseUrl}/docs/api`;

const mcpTools = (ctx: CatalogContext) => {
  const pack = buildRegistryPack(ctx, 'mcp');
  if (pack.target !== 'mcp') throw new Error('unreachable: the mcp registry pack');
  return pack.tools;
};

// ---------------------------------------------------------------- agent feed

/** /agent-feed.json: everything an agent needs to choose and call, in one machine-readable feed. */
export function buildAgentFeed(ctx: CatalogContext) {
  return {
    feed_version: '1',
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: SERVICE_VERSION,
    site_url: ctx.baseUrl,
    api_base_url: agentBaseUrl(ctx),
    environment: ctx.env,
    authentication: authentication(ctx),
    currency: 'USD',
    billing_model: 'prepaid credits, charged per successful call by named meters',
    services: serviceCatalogEntries(ctx, SOURCE),
    packs: catalogPackEntries(ctx, SOURCE).map((p) => ({
      pack_id: p.pack_id,
      name: p.name,
      amount_usd: p.amount_usd,
      credits_usd: p.base_credits_usd,
      checkout_url: p.checkout_redirect_url,
      capabilities: p.capabilities,
    })),
    meters: meterEntries(ctx),
    endpoints: AGENT_ENDPOINTS.map((e) => operationEntry(ctx, e)),
    mcp: {
      endpoint: endpointUrl(ctx, 'mcp'),
      method: findEndpoint('mcp').method,
      transport: 'streamable-http',
      status: endpointStatus('mcp'),
      server_json_url: descriptorUrl(ctx, 'mcp_server'),
      // The MCP registry pack's entries (input_schema exactly as tools/list serves it); the result
      // schemas stay in the pack and tools/list, to keep the feed a summary.
      tools: mcpTools(ctx).map(({ output_schema: _output, annotations: _annotations, ...t }) => ({
        ...t,
        equivalent_endpoint: MCP_TOOLS.find((x) => x.name === t.name)!.endpoint,
      })),
    },
    ...descriptorMaps(ctx, 'descriptors'),
    docs_url: apiReferenceUrl(ctx),
    legal_url: sitePageUrl(ctx, 'legal'),
    logo_url: sitePageUrl(ctx, 'logo'),
    contact_email: contactEmail(ctx),
  };
}

// ---------------------------------------------------------------- OpenAI plugin manifest

/** name_for_model: letters and digits only, at most 50 (the manifest's rule). */
export const PLUGIN_MODEL_NAME = SERVICE_NAME.replace(/[^A-Za-z0-9]/g, '').slice(0, 50);

function modelDescription(ctx: CatalogContext): string {
  const prices = METERS.filter((m) => !m.enterprise)
    .map((m) => `${m.charged_on} costs ${centsToUsd(ctx.prices[m.meter]).toFixed(2)} USD (${m.meter})`)
    .join('; ');
  return (
    `${SERVICE_DESCRIPTION} ` +
    `Get a key and a starter checkout with POST ${endpointUrl(ctx, 'pay')} (no body needed), open starter_checkout.url to pay, ` +
    `then send the key in the x-api-key header. Charged per successful call from prepaid credits: ${prices}. ` +
    `Check the balance at ${endpointUrl(ctx, 'status')}. A 402 answer carries next_actions with a checkout link; ` +
    `every error code is explained at ${endpointUrl(ctx, 'errors')}.`
  );
}

/**
 * /.well-known/ai-plugin.json. Auth: the OpenAI plugin docs list `service_http` with
 * authorization_type `bearer` or `basic`; for a key in a header of one's own choosing, ChatGPT
 * records `authorization_type: "custom"` with `custom_auth_header` (the form its API-key actions
 * serialise to). That form names x-api-key exactly; the instructions add the Bearer alternative,
 * which every route accepts too.
 */
export function buildAiPlugin(ctx: CatalogContext) {
  return {
    schema_version: 'v1' as const,
    name_for_human: SERVICE_NAME,
    name_for_model: PLUGIN_MODEL_NAME,
    description_for_human: SERVICE_SHORT_DESCRIPTION,
    description_for_model: modelDescription(ctx),
    auth: {
      type: 'service_http' as const,
      authorization_type: 'custom' as const,
      custom_auth_header: 'x-api-key',
      verification_tokens: {},
      instructions: `Get a key with POST ${endpointUrl(ctx, 'pay')}; send it in x-api-key (Authorization: Bearer <key> works too).`,
    },
    api: { type: 'openapi' as const, url: descriptorUrl(ctx, 'openapi'), is_user_authenticated: false },
    logo_url: sitePageUrl(ctx, 'logo'),
    contact_email: contactEmail(ctx),
    legal_info_url: sitePageUrl(ctx, 'legal'),
  };
}

// ---------------------------------------------------------------- service agent

/** The operations an agent starts from, in the order it would use them. */
const ENTRY_OPERATIONS = [
  'pay',
  'pay_check',
  'signup',
  'checkout_link',
  'catalog',
  'quote',
  'status',
  'quickstart',
  'capabilities',
  'manifest',
  'errors',
  'recovery',
  'trust',
  'registry_pack',
  'leads',
  'mcp',
] as const;

const DESCRIPTOR_MEANING: Record<DescriptorName, string> = {
  openapi: 'OpenAPI 3.1 description of every route',
  llms_txt: 'Summary and links for language models (llmstxt.org)',
  agent_feed: 'Services, packs, meters with prices, endpoints and MCP tools in one feed',
  ai_plugin: 'OpenAI plugin manifest',
  service_agent: 'These entry points',
  mcp_server: 'MCP registry entry (server.json)',
  well_known_mcp_server: 'MCP registry entry (server.json), well-known address',
};

/** /.well-known/service-agent: where an agent starts, every entry with its method and status. */
export function buildServiceAgent(ctx: CatalogContext) {
  const operations = ENTRY_OPERATIONS.map((name) => {
    const e = operationEntry(ctx, findEndpoint(name));
    return [name, { method: e.method, url: e.url, auth: e.auth, description: e.summary, status: e.status }] as const;
  });
  const documents = (Object.keys(DESCRIPTOR_PATHS) as DescriptorName[]).map(
    (name) =>
      [
        name,
        {
          method: 'GET' as const,
          url: descriptorUrl(ctx, name),
          auth: 'none' as const,
          description: DESCRIPTOR_MEANING[name],
          status: descriptorStatus(name),
        },
      ] as const,
  );
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    version: SERVICE_VERSION,
    site_url: ctx.baseUrl,
    api_base_url: agentBaseUrl(ctx),
    authentication: authentication(ctx),
    entry_points: Object.fromEntries([...operations, ...documents]),
    docs_url: apiReferenceUrl(ctx),
    legal_url: sitePageUrl(ctx, 'legal'),
    logo_url: sitePageUrl(ctx, 'logo'),
    contact_email: contactEmail(ctx),
  };
}

// ---------------------------------------------------------------- MCP registry server.json

const KEYLESS_TOOLS = MCP_TOOLS.filter((t) => t.auth === 'none')
  .map((t) => t.name)
  .join(', ');

/**
 * The entry's name: reverse-DNS of the public host (agents.example.com → com.example.agents/svc),
 * the namespace the MCP registry verifies by domain; an address or a one-label host stays as is.
 */
export function mcpServerName(baseUrl: string): string {
  const host = new URL(baseUrl).hostname.replace(/^\[(.*)\]$/, '$1');
  const dns = /[a-z]/i.test(host) && !host.includes(':');
  const namespace = dns ? host.split('.').reverse().join('.') : host.replace(/[^a-zA-Z0-9.-]/g, '-');
  return `${namespace}/svc`;
}

/** /mcp/server.json and /.well-known/mcp-server.json (schema 2025-12-11). */
export function buildMcpServerJson(ctx: CatalogContext) {
  return {
    $schema: MCP_SERVER_SCHEMA_URL,
    name: mcpServerName(ctx.baseUrl),
    title: SERVICE_NAME,
    description: SERVICE_SHORT_DESCRIPTION,
    version: SERVICE_VERSION,
    websiteUrl: apiReferenceUrl(ctx),
    icons: [{ src: sitePageUrl(ctx, 'logo'), mimeType: 'image/svg+xml' as const, sizes: ['any'] }],
    remotes: [
      {
        type: 'streamable-http' as const,
        url: endpointUrl(ctx, 'mcp'),
        headers: [
          {
            name: 'x-api-key',
            description: `Agent key (svc_${ctx.env}_…) from POST ${endpointUrl(ctx, 'pay')}. Every tool but ${KEYLESS_TOOLS} needs one; workspace tools need a tenant-bound key.`,
            isRequired: false,
            isSecret: true,
          },
        ],
      },
    ],
    _meta: {
      'io.modelcontextprotocol.registry/publisher-provided': {
        status: endpointStatus('mcp'),
        agent_feed_url: descriptorUrl(ctx, 'agent_feed'),
        openapi_url: descriptorUrl(ctx, 'openapi'),
        tools: mcpTools(ctx).map((t) => ({ name: t.name, meter: t.meter, price_usd: t.price_usd, status: t.status })),
      },
    },
  };
}
