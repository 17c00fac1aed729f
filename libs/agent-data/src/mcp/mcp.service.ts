import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { AnonymousThrottleGuard } from '#access';
import { APP_CONFIG, type AppConfig, Errors } from '#kernel';
import { OpenApiService, parseOrThrow, publicBaseUrl, type RequestOrigin, toErrorResponse } from '#http';
import { AgentAuthenticator, type AgentRequest } from '../auth/agent-auth.js';
import { AGENT_API_PREFIX, findEndpoint } from '../catalog/agent-surface.js';
import { SERVICE_VERSION } from '../catalog/information.parts.js';
import { agentNextActionsEnricher } from '../catalog/next-actions.enricher.js';
import { TenantDirectory } from '../workspace/tenants/tenant-directory.js';
import type { Reservation } from '../credits/credit-ledger.js';
import { MeteringService } from '../metering/metering.service.js';
import { TOOL_DEFINITIONS, type ToolContext, type ToolDefinition } from './mcp-tools.js';
import { prefersJson, SingleExchangeTransport } from './single-exchange.transport.js';

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

/** Told to an agent at initialize: how to get a key, pay, and make a first call. */
export const MCP_INSTRUCTIONS = [
  'Agent data API: ranked startup opportunities, company profiles and scores, and (enterprise) a tenant workspace.',
  '1. No key yet: call svc.signup. It returns key.api_key and starter_checkout.url; open the URL and pay (sandbox: press Pay).',
  '2. Send the key on every MCP HTTP request as x-api-key (or Authorization: Bearer).',
  '3. First paid call: svc.get_top_discovery {"limit": 10}. Each successful call is charged its meter from prepaid credits; _meta shows credits_charged_usd and credits_balance_usd.',
  '4. Out of credits: the tool error carries the 402 body with next_actions (a checkout link for your key). Failures are never charged.',
].join('\n');

/** A tool as tools/list shows it: JSON Schemas built once from the REST routes' zod schemas. */
interface PreparedTool {
  definition: ToolDefinition;
  listed: Tool;
  /** Tool argument → [part, field of that part]. */
  fields: Map<string, [ToolPart, string]>;
  meter: ToolDefinition['tool']['meter'];
  method: string;
  path: string;
}
type ToolPart = ToolDefinition['parts'][number];

type McpHttpRequest = AgentRequest &
  RequestOrigin & { id?: string; ip?: string; raw: IncomingMessage; body?: unknown; url?: string };

/**
 * The MCP endpoint (issue 15): Streamable HTTP, stateless (a server and transport per HTTP
 * request, no session), the thirteen svc.* tools. Each tool runs the same query or command as
 * its REST twin through the buses, with the same order of checks: the key (401), the tenant
 * (403), the arguments by the route's own zod schemas (400, nothing held), the meter's hold
 * (402), the work, then the charge, durable before the result. Failures answer the REST problem
 * body (next_actions included) as a tool error and are never charged.
 */
@Injectable()
export class McpService {
  private readonly logger = new Logger('Mcp');
  private readonly tools: Map<string, PreparedTool>;
  private readonly listed: Tool[];
  private readonly enrich: ReturnType<typeof agentNextActionsEnricher>;
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly auth: AgentAuthenticator,
    private readonly tenants: TenantDirectory,
    private readonly metering: MeteringService,
    private readonly anonymous: AnonymousThrottleGuard,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly openapi?: OpenApiService,
  ) {
    this.tools = new Map(TOOL_DEFINITIONS.map((d) => [d.tool.name, prepare(d)]));
    this.listed = [...this.tools.values()].map((t) => t.listed);
    this.enrich = agentNextActionsEnricher({
      config,
      operationAt: (method, path) => this.openapi?.operationAt(method, path),
    });
  }

  /** Serves one HTTP request of the MCP endpoint (the reply is the raw Node response). */
  async handle(request: McpHttpRequest, response: ServerResponse): Promise<void> {
    const server = this.server(request);
    response.on('close', () => void server.close());
    if (SingleExchangeTransport.fits(request.body, request.raw.headers)) {
      const exchange = new SingleExchangeTransport();
      await server.connect(exchange);
      exchange.onmessage?.(request.body, {
        requestInfo: { headers: request.raw.headers as Record<string, string> },
      });
      const answer = await Promise.race([exchange.answer, once(response, 'close').then(() => null)]);
      if (answer === null) return;
      const body = JSON.stringify(answer);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // JSON unless the client prefers a stream: it must accept both (the transport checks).
      enableJsonResponse: prefersJson(request.raw.headers.accept),
    });
    response.on('close', () => void transport.close());
    await server.connect(transport);
    await transport.handleRequest(request.raw, response, request.body);
  }

  /** A server for one HTTP request (stateless), its tools calling as this request's caller. */
  private server(request: McpHttpRequest): Server {
    const server = new Server(
      { name: 'svc-agent-data', title: 'Agent data API', version: SERVICE_VERSION },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: MCP_INSTRUCTIONS,
        // One validator for every request: the SDK builds an Ajv instance per Server otherwise
        // (763 µs a request, docs/performance.md).
        jsonSchemaValidator: this.validator,
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listed }));
    // A charge names the request by the server's own ids: the JSON-RPC id is the client's choice.
    let calls = 0;
    server.setRequestHandler(CallToolRequestSchema, (call) =>
      this.call(request, call.params.name, call.params.arguments ?? {}, ++calls),
    );
    return server;
  }

  private async call(
    request: McpHttpRequest,
    name: string,
    args: Record<string, unknown>,
    /** The call's rank in its HTTP request (1 unless the client batched calls). */
    callNumber: number,
  ): Promise<CallToolResult> {
    const tool = this.tools.get(name);
    if (!tool)
      return this.failure(
        request,
        null,
        Errors.notFound(`No tool named ${JSON.stringify(name)}; tools/list names them.`, 'TOOL_NOT_FOUND'),
      );
    let hold: Reservation | undefined;
    try {
      const baseUrl = publicBaseUrl(request, this.config);
      const principal = tool.definition.tool.auth === 'none' ? null : await this.auth.require(request);
      const tenant =
        tool.definition.tool.auth === 'tenant_key'
          ? await this.tenants.require(principal!, { write: !tool.definition.annotations.readOnlyHint, baseUrl })
          : null;
      const parts = splitArguments(tool, args);
      if (tool.definition.tool.auth === 'none')
        await this.anonymous.check('signup', { ip: request.ip, method: 'POST', url: `${AGENT_API_PREFIX}/mcp` });
      const caller = principal ? { accountId: principal.accountId, keyId: principal.keyId, baseUrl } : null;
      if (tool.meter && caller) hold = await this.metering.authorize(caller, tool.meter);
      const ctx: ToolContext = { queries: this.queries, commands: this.commands, tenant, baseUrl };
      const data = (await tool.definition.run(parts, ctx)) as Record<string, unknown>;
      const meta: Record<string, unknown> = {};
      if (tool.meter && caller) {
        const charged = await this.metering.charge(caller, tool.meter, `${request.id ?? 'mcp'}:${callNumber}`, hold);
        meta.credits_charged_usd = charged.priceCents / 100;
        meta.credits_balance_usd = charged.balanceCents / 100;
      } else meta.credits_charged_usd = 0;
      return {
        content: [{ type: 'text', text: JSON.stringify(data) }],
        structuredContent: data,
        _meta: meta,
      };
    } catch (error) {
      return this.failure(request, tool, error);
    } finally {
      hold?.release();
    }
  }

  /** The REST twin's problem body, as a tool error (isError, never charged). */
  private failure(request: McpHttpRequest, tool: PreparedTool | null, error: unknown): CallToolResult {
    const method = tool?.method ?? 'POST';
    const path = tool?.path ?? `${AGENT_API_PREFIX}/mcp`;
    const response = toErrorResponse(
      error,
      { method, path, url: path, raw: request },
      { problemTypeBase: this.config.publicUrl, enrich: this.enrich },
    );
    if (response.unexpected)
      this.logger.error(
        `tool ${tool?.definition.tool.name ?? '?'} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    const body = response.body;
    if (body.status === 401 && Array.isArray(body.next_actions)) {
      // Over MCP the way to a key is a tool.
      body.next_actions = [
        {
          action: 'call_tool',
          tool: 'svc.signup',
          method: 'POST',
          url: `${publicBaseUrl(request, this.config)}${AGENT_API_PREFIX}/mcp`,
          description:
            'Call the svc.signup tool (no key needed) for a key and a starter checkout; then send the key as x-api-key on the MCP HTTP request.',
        },
        ...body.next_actions,
      ];
    }
    return {
      isError: true,
      content: [{ type: 'text', text: `${body.status} ${String(body.code)}: ${String(body.message)}` }],
      structuredContent: body,
      _meta: { credits_charged_usd: 0, http_status: body.status },
    };
  }
}

/** The JSON Schemas of a tool, its argument map, and its REST twin (method, templated path). */
function prepare(definition: ToolDefinition): PreparedTool {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const fields = new Map<string, [ToolPart, string]>();
  for (const part of definition.parts) {
    const schema = objectSchema(z.toJSONSchema(part.schema, { io: 'input', unrepresentable: 'any' })) as {
      properties?: Record<string, unknown>;
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
  const output = { type: 'object', anyOf: [data, PROBLEM_SCHEMA], ...(defs ? { $defs: defs } : {}) };
  const endpoint = findEndpoint(definition.tool.endpoint);
  return {
    definition,
    fields,
    meter: endpoint.meter,
    method: endpoint.method,
    path: `${AGENT_API_PREFIX}${endpoint.path}`,
    listed: {
      name: definition.tool.name,
      title: definition.title,
      description: toolDescription(definition, endpoint.meter, endpoint.method, endpoint.path),
      inputSchema: {
        type: 'object',
        properties: properties as Record<string, object>,
        ...(required.length ? { required } : {}),
        additionalProperties: false,
      },
      outputSchema: output as Tool['outputSchema'],
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

function toolDescription(definition: ToolDefinition, meter: string | undefined, method: string, path: string): string {
  const auth = {
    none: 'No key needed.',
    key: 'Needs an agent key.',
    key_optional: '',
    tenant_key: 'Needs an enterprise (tenant-bound) key.',
  }[definition.tool.auth];
  const price = meter
    ? ` Charged meter ${meter} per successful call (GET /api/v1/agents/catalog lists prices).`
    : ' Free.';
  return `${definition.description} ${auth}${price} Same as ${method} /api/v1${path}.`;
}

/**
 * The tool's arguments split into its REST parts, each parsed with the route's own schema (400
 * VALIDATION_FAILED naming `params.id`, `body.stage`, ... as REST does). Unknown arguments: 400.
 */
function splitArguments(tool: PreparedTool, args: Record<string, unknown>): Record<string, Record<string, unknown>> {
  const raw = new Map<ToolPart, Record<string, unknown>>(tool.definition.parts.map((p) => [p, {}]));
  const unknown = Object.keys(args).filter((arg) => !tool.fields.has(arg));
  if (unknown.length) throw Errors.validation(unknown.map((arg) => ({ path: arg, message: 'unknown argument' })));
  for (const [arg, value] of Object.entries(args)) {
    const [part, field] = tool.fields.get(arg)!;
    raw.get(part)![field] = value;
  }
  const out: Record<string, Record<string, unknown>> = {};
  for (const [part, values] of raw) {
    const parsed = parseOrThrow(part.schema, values, part.part) as Record<string, unknown>;
    out[part.part] = { ...(out[part.part] ?? {}), ...parsed };
  }
  return out;
}
