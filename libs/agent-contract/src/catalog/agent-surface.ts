/**
 * The agent data surface as a table (spec "Agent data API" endpoint tables and the MCP tool
 * table): the guidance documents, the manifest and the registry packs are all built from it, so
 * they list the same operations with the same meters. Paths are relative to /api/v1. The rows
 * are data (agent-surface.data.yaml), checked by the schema below when this module loads.
 *
 * A row the spec lists but this service does not serve yet is marked `planned` (none today). The
 * documents never offer a planned route as callable: an object describing one carries `status:
 * "planned"`, a name → URL map keeps it out and lists it under a `planned_…` sibling, and a
 * single link to it is null.
 */
import { z } from 'zod';
import { loadDataFile } from '#kernel';
import { METER_NAMES, type MeterName } from './meters.js';

// One prefix for the whole agent surface, defined where the lowest reader (billing's links) is.
export { AGENT_API_PREFIX } from '../links.js';

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

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

const EndpointRow = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]*$/),
  method: z.enum(METHODS),
  path: z.string().startsWith('/'),
  group: z.enum(['onboarding', 'billing', 'information', 'data', 'workspace', 'mcp']),
  auth: z.enum(['none', 'key', 'key_optional', 'tenant_key']),
  summary: z.string().min(1),
  meter: z.enum(METER_NAMES).optional(),
  status: z.literal('planned').optional(),
});

/** The shape of agent-surface.data.yaml (exported for its spec). */
export const agentSurfaceFileSchema = z
  .strictObject({
    endpoints: z.array(EndpointRow).min(1),
    tools: z.array(z.strictObject({ name: z.string().min(1), endpoint: z.string(), description: z.string().min(1) })),
    unlisted_routes: z.array(
      z.strictObject({ method: z.enum(METHODS), path: z.string().startsWith('/'), reason: z.string().min(1) }),
    ),
  })
  .superRefine(({ endpoints, tools }, ctx) => {
    const names = new Set<string>();
    endpoints.forEach((e, i) => {
      if (names.has(e.name))
        ctx.addIssue({ code: 'custom', path: ['endpoints', i, 'name'], message: `duplicate name ${e.name}` });
      names.add(e.name);
    });
    tools.forEach((t, i) => {
      if (!names.has(t.endpoint))
        ctx.addIssue({ code: 'custom', path: ['tools', i, 'endpoint'], message: `no endpoint named ${t.endpoint}` });
    });
  });

const SURFACE = loadDataFile(import.meta.url, './agent-surface.data.yaml', agentSurfaceFileSchema);

export const AGENT_ENDPOINTS: readonly AgentEndpoint[] = Object.freeze(SURFACE.endpoints satisfies AgentEndpoint[]);

export interface McpTool {
  name: string;
  /** The HTTP operation it is equivalent to (AGENT_ENDPOINTS name). */
  endpoint: string;
  description: string;
  /** The operation's meter and auth: taken from its row, never restated here. */
  meter?: MeterName;
  auth: EndpointAuth;
}

/** The spec's MCP tool table (names exact); the arguments are in libs/agent-surface/src/tools. */
const MCP_TOOL_ROWS = SURFACE.tools;

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
  Object.freeze(SURFACE.unlisted_routes);
