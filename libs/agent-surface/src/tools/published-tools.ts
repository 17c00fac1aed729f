/**
 * The tools as they are published: JSON Schemas rendered once from the REST routes' zod schemas
 * (tool-definitions.ts), with the meter and the REST twin of each from the endpoint table. The
 * MCP endpoint's tools/list answers these objects, and the agent feed, the registry packs and
 * server.json copy them: one rendering, so a document cannot describe an argument the live tool
 * does not take (11 of 13 published schemas had drifted when they were restated).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AGENT_API_PREFIX, type AgentEndpoint, findEndpoint } from '#agent-contract';
import { TOOL_DEFINITIONS, type ToolDefinition, type ToolPart } from './tool-definitions.js';

/** What a failed call's structuredContent is: the agent surface's problem+json body (D5). */
const PROBLEM_SCHEMA = {
  type: 'object',
  description: 'A failure (isError): the same problem body as the REST route, never charged.',
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer', description: 'The HTTP status the REST route answers.' },
    error: { type: 'string' },
    code: { type: 'string', description: 'Stable code; GET /api/v1/agents/errors explains each.' },
    message: { type: 'string' },
    next_actions: {
      type: 'array',
      description: 'What to do next: requests with absolute URLs (a checkout link on a 402).',
      items: { type: 'object' },
    },
  },
  required: ['status', 'error', 'code', 'message'],
  additionalProperties: true,
};

export interface PublishedTool {
  definition: ToolDefinition;
  /** The REST twin (AGENT_ENDPOINTS row): its meter, auth, method and path are the tool's. */
  endpoint: AgentEndpoint;
  /** The tool as tools/list lists it, and as every document publishes its schemas. */
  listed: Tool & { inputSchema: Tool['inputSchema']; outputSchema: NonNullable<Tool['outputSchema']> };
  /** Tool argument → [part, field of that part]. */
  fields: ReadonlyMap<string, readonly [ToolPart, string]>;
}

/** The JSON Schemas of a tool, its argument map, and its REST twin. */
function publish(definition: ToolDefinition): PublishedTool {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  const fields = new Map<string, readonly [ToolPart, string]>();
  for (const part of definition.parts) {
    const schema = objectSchema(z.toJSONSchema(part.schema, { io: 'input', unrepresentable: 'any' })) as {
      properties?: Record<string, object>;
      required?: string[];
    };
    const toolName = Object.fromEntries(Object.entries(part.rename ?? {}).map(([arg, field]) => [field, arg]));
    for (const [field, property] of Object.entries(schema.properties ?? {})) {
      const arg = toolName[field] ?? field;
      if (fields.has(arg)) throw new Error(`${definition.tool.name}: argument ${arg} comes from two parts`);
      properties[arg] = property;
      fields.set(arg, [part, field]);
    }
    for (const field of schema.required ?? []) required.push(toolName[field] ?? field);
  }
  // A result is the REST `data`, or (isError) the REST problem body: the SDK's clients check
  // structuredContent against the output schema either way.
  const { $defs: defs, ...data } = objectSchema(
    z.toJSONSchema(definition.output, { io: 'output', unrepresentable: 'any' }),
  ) as Record<string, unknown> & { $defs?: Record<string, unknown> };
  const outputSchema = { type: 'object' as const, anyOf: [data, PROBLEM_SCHEMA], ...(defs ? { $defs: defs } : {}) };
  const endpoint = findEndpoint(definition.tool.endpoint);
  return {
    definition,
    endpoint,
    fields,
    listed: {
      name: definition.tool.name,
      title: definition.title,
      description: listedDescription(definition, endpoint),
      inputSchema: {
        type: 'object',
        properties,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      },
      outputSchema,
      annotations: { title: definition.title, ...definition.annotations },
    },
  };
}

/**
 * MCP wants `type: object` at the root of tool schemas; zod puts a schema with an id in `$defs`
 * and refers to it from the root: inline the root, keep the other definitions beside it.
 */
function objectSchema(jsonSchema: Record<string, unknown>): Record<string, unknown> {
  const {
    $schema: _schema,
    $ref: ref,
    $defs: defs,
    ...rest
  } = jsonSchema as Record<string, unknown> & {
    $ref?: string;
    $defs?: Record<string, Record<string, unknown>>;
  };
  if (typeof ref !== 'string' || !ref.startsWith('#/$defs/') || !defs)
    return jsonSchema.$schema ? { ...rest, ...(defs ? { $defs: defs } : {}) } : jsonSchema;
  const name = ref.slice('#/$defs/'.length);
  const { [name]: root, ...others } = defs;
  return { ...root, ...rest, ...(Object.keys(others).length ? { $defs: others } : {}) };
}

const AUTH_NOTE = {
  none: 'No key needed.',
  key: 'Needs an agent key.',
  key_optional: '',
  tenant_key: 'Needs an enterprise (tenant-bound) key.',
} as const;

/** What the tool does, the key it needs and its REST twin; `price` says what it costs. */
export function toolDescription(
  { definition, endpoint }: Pick<PublishedTool, 'definition' | 'endpoint'>,
  price: string,
): string {
  return `${definition.description} ${AUTH_NOTE[endpoint.auth]}${price} Same as ${endpoint.method} ${AGENT_API_PREFIX}${endpoint.path}.`;
}

/** tools/list's description: static (served from a cache), so prices are pointed to, not stated. */
function listedDescription(definition: ToolDefinition, endpoint: AgentEndpoint): string {
  const price = endpoint.meter
    ? ` Charged meter ${endpoint.meter} per successful call (GET /api/v1/agents/catalog lists prices).`
    : ' Free.';
  return toolDescription({ definition, endpoint }, price);
}

/** Every tool, in the spec's order (the order of tools/list). */
export const PUBLISHED_TOOLS: readonly PublishedTool[] = Object.freeze(TOOL_DEFINITIONS.map(publish));

const BY_NAME = new Map(PUBLISHED_TOOLS.map((t) => [t.listed.name, t]));

/** The published tool of that name; undefined for none. */
export function publishedTool(name: string): PublishedTool | undefined {
  return BY_NAME.get(name);
}
