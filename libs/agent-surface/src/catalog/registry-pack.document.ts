/**
 * Registration material for agent registries: GET /api/v1/agents/registry-pack (index) and
 * /agents/registry-pack/{openai|mcp|generic}. Built from the MCP tool table, so the three packs
 * list the same operations, meters and prices; the OpenAI pack only the functions whose HTTP
 * operation is served, the others every tool with its status. Argument and result schemas are
 * the ones tools/list serves (never restated here: restated, 11 of 13 had drifted).
 */
import { z } from 'zod';
import {
  agentBaseUrl,
  agentUrl,
  type CatalogContext,
  DESCRIPTOR_PATHS,
  type DescriptorName,
  descriptorStatus,
  endpointStatus,
  endpointUrl,
  envelopeSchema,
  findEndpoint,
  MCP_TOOLS,
  type McpTool,
  METER_NAMES,
  PACK_IDS,
  REGISTRY_TARGETS,
  type RegistryTarget,
  toolStatus,
} from '#agent-contract';
import { callToAction, catalogPackEntries } from './catalog.document.js';
import { meter, packId, routeStatus, strings, url, urlTemplate, usd } from './catalog.schemas.js';
import { meterEntries, meterPrice, SERVICE_DESCRIPTION, SERVICE_NAME } from './information.parts.js';
import { centsToUsd } from '#kernel';
import { TEXTS } from './document-texts.js';
import { publishedTool, toolDescription, type PublishedTool } from '../tools/published-tools.js';

/** A tool's arguments and result as tools/list publishes them (one rendering, tools/published-tools.ts). */
function published(tool: McpTool): PublishedTool {
  const t = publishedTool(tool.name);
  if (!t) throw new Error(`MCP tool ${tool.name} has no definition`);
  return t;
}

/** The tool's own description (the one tools/list gives), with the configured price. */
export function publishedToolDescription(ctx: CatalogContext, tool: McpTool): string {
  const price = tool.meter
    ? ` Costs ${centsToUsd(ctx.prices[tool.meter]).toFixed(2)} USD per successful call (meter ${tool.meter}).`
    : ' Free.';
  return toolDescription(published(tool), price);
}

/** What a registry publishes of a tool: its arguments exactly as the live tools/list gives them. */
export function publishedInputSchema(tool: McpTool): Record<string, unknown> {
  return published(tool).listed.inputSchema;
}

function auth(ctx: CatalogContext) {
  return {
    type: 'api_key' as const,
    header: 'x-api-key',
    alternative: TEXTS.authentication.alternative,
    obtain: { method: 'POST', url: endpointUrl(ctx, 'pay'), returns: TEXTS.registry.obtain_returns },
  };
}

/** A descriptor's address, or null while it is planned. */
function descriptorUrl(ctx: CatalogContext, name: DescriptorName): string | null {
  return descriptorStatus(name) === 'available' ? `${ctx.baseUrl}${DESCRIPTOR_PATHS[name]}` : null;
}

/** The tools whose HTTP operation is served (function calling goes over HTTP, not MCP). */
const httpCallable = (t: McpTool) => endpointStatus(t.endpoint) === 'available';

function links(ctx: CatalogContext) {
  return {
    openapi_url: `${ctx.baseUrl}${DESCRIPTOR_PATHS.openapi}`,
    catalog_url: endpointUrl(ctx, 'catalog'),
    quickstart_url: endpointUrl(ctx, 'quickstart'),
  };
}

export function buildRegistryIndex(ctx: CatalogContext) {
  return {
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    targets: REGISTRY_TARGETS.map((target) => ({
      target,
      url: `${endpointUrl(ctx, 'registry_pack')}/${target}`,
      description: TEXTS.registry.targets[target],
    })),
    ...links(ctx),
  };
}

/** OpenAI function names allow [a-zA-Z0-9_-] only: dots become underscores. */
export function openAiFunctionName(mcpName: string): string {
  return mcpName.replace(/\./g, '_');
}

function buildOpenAi(ctx: CatalogContext) {
  const tools = MCP_TOOLS.filter(httpCallable);
  const planned = MCP_TOOLS.filter((t) => !httpCallable(t)).map((t) => openAiFunctionName(t.name));
  return {
    target: 'openai' as const,
    format: 'openai.tools',
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    auth: auth(ctx),
    ...links(ctx),
    ai_plugin_url: descriptorUrl(ctx, 'ai_plugin'),
    tools: tools.map((t) => ({
      type: 'function' as const,
      function: {
        name: openAiFunctionName(t.name),
        description: publishedToolDescription(ctx, t),
        parameters: publishedInputSchema(t),
      },
    })),
    // How to execute each function call over HTTP.
    calls: tools.map((t) => {
      const e = findEndpoint(t.endpoint);
      return {
        function: openAiFunctionName(t.name),
        method: e.method,
        url: agentUrl(ctx, e.path),
        meter: t.meter ?? null,
      };
    }),
    ...(planned.length ? { planned_tools: planned } : {}),
  };
}

function buildMcp(ctx: CatalogContext) {
  return {
    target: 'mcp' as const,
    server: {
      name: 'svc',
      title: SERVICE_NAME,
      description: SERVICE_DESCRIPTION,
      url: endpointUrl(ctx, 'mcp'),
      transport: 'streamable-http',
      status: endpointStatus('mcp'),
    },
    auth: auth(ctx),
    server_json_url: descriptorUrl(ctx, 'mcp_server'),
    well_known_url: descriptorUrl(ctx, 'well_known_mcp_server'),
    ...links(ctx),
    tools: MCP_TOOLS.map((t) => ({
      name: t.name,
      title: published(t).listed.title!,
      description: publishedToolDescription(ctx, t),
      input_schema: publishedInputSchema(t),
      output_schema: published(t).listed.outputSchema,
      annotations: published(t).listed.annotations!,
      meter: t.meter ?? null,
      price_usd: t.meter ? centsToUsd(ctx.prices[t.meter]) : null,
      auth: t.auth,
      status: toolStatus(t),
    })),
  };
}

function buildGeneric(ctx: CatalogContext) {
  return {
    target: 'generic' as const,
    name: SERVICE_NAME,
    description: SERVICE_DESCRIPTION,
    base_url: agentBaseUrl(ctx),
    auth: auth(ctx),
    ...links(ctx),
    llms_txt_url: descriptorUrl(ctx, 'llms_txt'),
    agent_feed_url: descriptorUrl(ctx, 'agent_feed'),
    call_to_action: callToAction(ctx),
    pricing: {
      currency: 'USD',
      model: TEXTS.registry.pricing_model,
      packs: catalogPackEntries(ctx, 'registry').map((p) => ({
        pack_id: p.pack_id,
        name: p.name,
        amount_usd: p.amount_usd,
        credits_usd: p.base_credits_usd,
        checkout_redirect_url: p.checkout_redirect_url,
      })),
      meters: meterEntries(ctx).map(({ meter, price_usd }) => ({ meter, price_usd })),
    },
    operations: MCP_TOOLS.map((t) => {
      const e = findEndpoint(t.endpoint);
      return {
        name: t.name,
        method: e.method,
        url: agentUrl(ctx, e.path),
        description: publishedToolDescription(ctx, t),
        auth: t.auth,
        status: endpointStatus(e),
      };
    }),
  };
}

export function buildRegistryPack(ctx: CatalogContext, target: RegistryTarget) {
  switch (target) {
    case 'openai':
      return buildOpenAi(ctx);
    case 'mcp':
      return buildMcp(ctx);
    case 'generic':
      return buildGeneric(ctx);
  }
}

// ---------------------------------------------------------------- schemas

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
    targets: z
      .array(z.strictObject({ target: z.enum(REGISTRY_TARGETS), url, description: z.string() }))
      .length(REGISTRY_TARGETS.length),
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
        .array(
          z.strictObject({
            type: z.literal('function'),
            function: z.strictObject({
              name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
              description: z.string(),
              parameters: jsonSchema,
            }),
          }),
        )
        .min(1),
      calls: z
        .array(z.strictObject({ function: z.string(), method: z.string(), url: urlTemplate, meter: meter.nullable() }))
        .min(1),
      /** Function names of the spec's tools whose operation is not served yet (absent: none). */
      planned_tools: strings.min(1).optional(),
    }),
    z.strictObject({
      target: z.literal('mcp'),
      server: z.strictObject({
        name: z.string(),
        title: z.string(),
        description: z.string(),
        url,
        transport: z.string(),
        status: routeStatus,
      }),
      auth: registryAuth,
      /** Null while the descriptor is planned. */
      server_json_url: url.nullable(),
      well_known_url: url.nullable(),
      ...registryLinks,
      tools: z
        .array(
          z.strictObject({
            name: z.string(),
            title: z.string(),
            description: z.string(),
            /** Exactly the live tools/list inputSchema. */
            input_schema: jsonSchema,
            /** Exactly the live tools/list outputSchema (the result, or the problem body of a failure). */
            output_schema: jsonSchema,
            annotations: z.strictObject({
              title: z.string().optional(),
              readOnlyHint: z.boolean().optional(),
              destructiveHint: z.boolean().optional(),
              idempotentHint: z.boolean().optional(),
              openWorldHint: z.boolean().optional(),
            }),
            meter: meter.nullable(),
            price_usd: usd.nullable(),
            auth: z.string(),
            status: routeStatus,
          }),
        )
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
        packs: z
          .array(
            z.strictObject({
              pack_id: packId,
              name: z.string(),
              amount_usd: usd,
              credits_usd: usd,
              checkout_redirect_url: url,
            }),
          )
          .length(PACK_IDS.length),
        meters: z.array(meterPrice).length(METER_NAMES.length),
      }),
      operations: z
        .array(
          z.strictObject({
            name: z.string(),
            method: z.string(),
            url: urlTemplate,
            description: z.string(),
            auth: z.string(),
            status: routeStatus,
          }),
        )
        .min(1),
    }),
  ]),
  'AgentRegistryPack',
);

export const registryTargetParams = z.object({ target: z.string().min(1).max(64) });
