import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AnonymousThrottleGuard } from '#access';
import { APP_CONFIG, type AppConfig, AppError, Errors, type MaybePromise, whenReady } from '#kernel';
import { OpenApiService, parseOrThrow, publicBaseUrl, type RequestOrigin, toErrorResponse } from '#http';
import { AgentAuthenticator, agentAuthorization, type AgentRequest } from '../auth/agent-auth.js';
import { AGENT_API_PREFIX } from '../catalog/agent-surface.js';
import { SERVICE_VERSION } from '../catalog/information.parts.js';
import { agentNextActionsEnricher } from '../catalog/next-actions.enricher.js';
import { TenantDirectory } from '../workspace/tenants/tenant-directory.js';
import type { Reservation } from '../credits/credit-ledger.js';
import { MeteringService } from '../metering/metering.service.js';
import { CountedBatchTransport } from './counted-batch.transport.js';
import { type McpCaller, McpRateLimits } from './mcp-rate-limits.js';
import { batchRefusal, type McpRefusal, originRefusal } from './mcp-request.policy.js';
import type { ToolContext, ToolPart } from '../tools/tool-definitions.js';
import { PUBLISHED_TOOLS, publishedTool, type PublishedTool } from '../tools/published-tools.js';
import { prefersJson, SingleExchangeTransport } from './single-exchange.transport.js';
import { ToolsListCache } from './tools-list.cache.js';
import { problemText, readsStructuredContent, resultText } from './tool-result.text.js';

/** Told to an agent at initialize: how to get a key, pay, and make a first call. */
export const MCP_INSTRUCTIONS = [
  'Agent data API: ranked startup opportunities, company profiles and scores, and (enterprise) a tenant workspace.',
  '1. No key yet: call svc.signup. It returns key.api_key and starter_checkout.url; open the URL and pay (sandbox: press Pay).',
  '2. Send the key on every MCP HTTP request as x-api-key (or Authorization: Bearer).',
  '3. First paid call: svc.get_top_discovery {"limit": 10}. Each successful call is charged its meter from prepaid credits; _meta shows credits_charged_usd and credits_balance_usd.',
  '4. Out of credits: the tool error carries the 402 body with next_actions (a checkout link for your key). Failures are never charged.',
].join('\n');

type McpHttpRequest = AgentRequest &
  RequestOrigin & { id?: string; ip?: string; raw: IncomingMessage; body?: unknown; url?: string };

/** What may go on: a refusal to answer as is, or whose budget the request's messages count against. */
export type McpAdmission = { refusal: McpRefusal } | { caller: McpCaller };

/** The implementation-defined JSON-RPC error of a message refused for its caller's rate limit. */
const RATE_LIMITED = -32000;

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
  private readonly listed: ToolsListCache;
  private readonly enrich: ReturnType<typeof agentNextActionsEnricher>;
  private readonly validator = new AjvJsonSchemaValidator();

  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    private readonly auth: AgentAuthenticator,
    private readonly tenants: TenantDirectory,
    private readonly metering: MeteringService,
    private readonly anonymous: AnonymousThrottleGuard,
    private readonly limits: McpRateLimits,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly openapi?: OpenApiService,
  ) {
    this.listed = new ToolsListCache(PUBLISHED_TOOLS.map((t) => t.listed));
    this.enrich = agentNextActionsEnricher({
      config,
      operationAt: (method, path) => this.openapi?.operationAt(method, path),
    });
  }

  /**
   * What is checked before any message is read (ADR 0074), in this order: the Origin and Host
   * (403), the batch (400), the key, then the request counted as its first message against the
   * key's budget or, without a working key, the client address's (429; ADR 0084). The
   * X-RateLimit-* headers go on `reply`; the 429 is thrown (the agent surface's problem body).
   */
  admit(request: McpHttpRequest, reply: { header(name: string, value: string): unknown }): MaybePromise<McpAdmission> {
    const refusal =
      originRefusal(request, this.config) ?? batchRefusal(request.body, request.headers, this.config.mcp.maxBatch);
    if (refusal) return { refusal };
    return whenReady(this.callerOf(request), (caller) =>
      whenReady(this.limits.count(caller), (decision) => {
        for (const [name, value] of Object.entries(decision.headers)) reply.header(name, value);
        if (!decision.allowed) throw this.limits.refusal(decision, caller);
        return { caller };
      }),
    );
  }

  /**
   * A key that does not work here (wrong, revoked, of the other surface) is no key for the
   * endpoint: initialize, tools/list and the free tools answer, counted against the address, and
   * only a paid tool answers the 401, as a tool error with its next step (issue 29: the official
   * client's connect() threw on an HTTP 401, so even svc.signup was out of reach).
   */
  private callerOf(request: McpHttpRequest): MaybePromise<McpCaller> {
    const anonymous = { address: request.ip ?? 'unknown' };
    if (agentAuthorization(request.headers) === undefined) return anonymous;
    const notWorking = (error: unknown): McpCaller => {
      if (error instanceof AppError && error.kind === 'unauthenticated') return anonymous;
      throw error;
    };
    try {
      const principal = this.auth.require(request);
      return principal instanceof Promise
        ? principal.then((p) => ({ keyId: p.keyId }), notWorking)
        : { keyId: principal.keyId };
    } catch (error) {
      return notWorking(error);
    }
  }

  /**
   * Serves one admitted HTTP request of the MCP endpoint (the reply is the raw Node response);
   * each message of a batch after the first counts against `caller` too.
   */
  async handle(request: McpHttpRequest, response: ServerResponse, caller: McpCaller): Promise<void> {
    const message = request.body;
    const single = SingleExchangeTransport.fits(message, request.raw.headers);
    if (single && this.listed.answers(message)) {
      const body = this.listed.body(message.id);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return;
    }
    const server = this.server(request);
    if (single) {
      const exchange = new SingleExchangeTransport();
      await server.connect(exchange);
      exchange.onmessage?.(message, {
        requestInfo: { headers: request.raw.headers as Record<string, string> },
      });
      const answer = await Promise.race([exchange.answer, once(response, 'close').then(() => null)]);
      // Closed only when the client left first (it aborts the handler): closing an answered
      // exchange builds the SDK's ConnectionClosed error with its stack, 28 µs a call for nothing.
      if (answer === null) {
        void server.close();
        return;
      }
      const body = JSON.stringify(answer);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      response.end(body);
      return;
    }
    response.on('close', () => void server.close());
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // JSON unless the client prefers a stream: it must accept both (the transport checks).
      enableJsonResponse: prefersJson(request.raw.headers.accept),
    });
    response.on('close', () => void transport.close());
    await server.connect(
      Array.isArray(request.body)
        ? new CountedBatchTransport(
            transport,
            () => this.countNext(caller, response),
            (message, refusal: AppError) => this.refused(request, message, refusal),
          )
        : transport,
    );
    await transport.handleRequest(request.raw, response, request.body);
  }

  /** One more message of a batch counted: the headers show the latest count; the 429 when over. */
  private countNext(caller: McpCaller, response: ServerResponse): MaybePromise<AppError | undefined> {
    return whenReady(this.limits.count(caller), (decision) => {
      if (!response.headersSent)
        for (const [name, value] of Object.entries(decision.headers)) response.setHeader(name, value);
      return decision.allowed ? undefined : this.limits.refusal(decision, caller);
    });
  }

  /**
   * The answer to a message of a batch refused for its caller's rate limit: a tool call gets the
   * tool error every failed call gets (the REST 429 body); anything else a JSON-RPC error whose
   * data is that body.
   */
  private refused(request: McpHttpRequest, message: JSONRPCRequest, refusal: AppError): JSONRPCMessage {
    const name = message.method === 'tools/call' ? (message.params as { name?: unknown } | undefined)?.name : undefined;
    const failed = this.failure(request, typeof name === 'string' ? (publishedTool(name) ?? null) : null, refusal);
    if (message.method === 'tools/call') return { jsonrpc: '2.0', id: message.id, result: failed };
    return {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: RATE_LIMITED, message: refusal.message, data: failed.structuredContent },
    };
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
    server.setRequestHandler(ListToolsRequestSchema, () => this.listed.result);
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
    const tool = publishedTool(name);
    if (!tool) throw unknownTool(name);
    let hold: Reservation | undefined;
    try {
      const baseUrl = publicBaseUrl(request, this.config);
      const { auth, meter } = tool.endpoint;
      const principal = auth === 'none' ? null : await this.auth.require(request);
      const tenant =
        auth === 'tenant_key'
          ? await this.tenants.require(principal!, { write: !tool.definition.annotations.readOnlyHint, baseUrl })
          : null;
      const parts = splitArguments(tool, args);
      if (auth === 'none')
        await this.anonymous.check('signup', { ip: request.ip, method: 'POST', url: `${AGENT_API_PREFIX}/mcp` });
      const caller = principal ? { accountId: principal.accountId, keyId: principal.keyId, baseUrl } : null;
      if (meter && caller) hold = await this.metering.authorize(caller, meter);
      const ctx: ToolContext = { queries: this.queries, commands: this.commands, tenant, baseUrl };
      const data = (await tool.definition.run(parts, ctx)) as Record<string, unknown>;
      const meta: Record<string, unknown> = {};
      if (meter && caller) {
        const charged = await this.metering.charge(caller, meter, `${request.id ?? 'mcp'}:${callNumber}`, hold);
        meta.credits_charged_usd = charged.priceCents / 100;
        meta.credits_balance_usd = charged.balanceCents / 100;
      } else meta.credits_charged_usd = 0;
      return {
        content: [
          {
            type: 'text',
            text: resultText(data, readsStructuredContent(request.raw.headers['mcp-protocol-version'])),
          },
        ],
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
  private failure(request: McpHttpRequest, tool: PublishedTool | null, error: unknown): CallToolResult {
    const method = tool?.endpoint.method ?? 'POST';
    const path = `${AGENT_API_PREFIX}${tool?.endpoint.path ?? '/mcp'}`;
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
      // Over MCP the way to a new key is a tool, offered where REST offers a new account: after
      // the ways back to the account of a key that does not work.
      const actions = body.next_actions as Array<{ action?: unknown }>;
      const newAccount = actions.findIndex((a) => a.action === 'get_api_key');
      const at = newAccount < 0 ? 0 : newAccount;
      body.next_actions = [
        ...actions.slice(0, at),
        {
          action: 'call_tool',
          tool: 'svc.signup',
          method: 'POST',
          url: `${publicBaseUrl(request, this.config)}${AGENT_API_PREFIX}/mcp`,
          description:
            'Call the svc.signup tool (no key needed) for a key and a starter checkout; then send the key as x-api-key on the MCP HTTP request.',
        },
        ...actions.slice(at),
      ];
    }
    const meta: Record<string, unknown> = { credits_charged_usd: 0, http_status: body.status };
    // No HTTP headers of its own: a call refused for the rate limit carries them here.
    const limit = response.headers;
    if (limit['X-RateLimit-Limit'] !== undefined)
      meta.rate_limit = {
        limit: Number(limit['X-RateLimit-Limit']),
        remaining: Number(limit['X-RateLimit-Remaining']),
        reset: Number(limit['X-RateLimit-Reset']),
        retry_after: Number(limit['Retry-After']),
      };
    return {
      isError: true,
      content: [{ type: 'text', text: problemText(body, tool) }],
      structuredContent: body,
      _meta: meta,
    };
  }
}

/**
 * A tools/call naming no tool of this server: a protocol error, -32602 Invalid params (the MCP
 * specification's tools "Error Handling": unknown tools are JSON-RPC errors, not tool results),
 * naming the tools there are so the caller can correct the name without another request.
 */
function unknownTool(name: string): McpError {
  const tools = PUBLISHED_TOOLS.map((t) => t.listed.name);
  return new McpError(
    ErrorCode.InvalidParams,
    `Unknown tool: ${JSON.stringify(name)}. The tools are ${tools.join(', ')}; tools/list describes each.`,
    { code: 'TOOL_NOT_FOUND', tools },
  );
}

/**
 * The tool's arguments split into its REST parts, each parsed with the route's own schema (400
 * VALIDATION_FAILED naming `params.id`, `body.stage`, ... as REST does). Unknown arguments: 400.
 */
function splitArguments(tool: PublishedTool, args: Record<string, unknown>): Record<string, Record<string, unknown>> {
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
