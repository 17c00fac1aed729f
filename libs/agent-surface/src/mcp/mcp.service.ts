import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type JSONRPCMessage,
  type JSONRPCRequest,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AnonymousThrottleGuard } from '#access';
import { APP_CONFIG, type AppConfig, AppError, type MaybePromise, whenReady } from '#kernel';
import { OpenApiService, prefersJson, publicBaseUrl, type RequestOrigin, toErrorResponse } from '#http';
import { AGENT_API_PREFIX, agentAuthorization, type AgentRequest } from '#agent-contract';
import { SERVICE_VERSION } from '../catalog/information.parts.js';
import { agentNextActionsEnricher } from '../catalog/next-actions.enricher.js';
import { MeteredPipeline } from '#agent-billing';
import { CountedBatchTransport } from './counted-batch.transport.js';
import { type McpCaller, McpRateLimits } from './mcp-rate-limits.js';
import { batchRefusal, type McpRefusal, originRefusal } from './mcp-request.policy.js';
import { PUBLISHED_TOOLS, publishedTool, type PublishedTool } from '../tools/published-tools.js';
import { JSON_OVER_STREAM, loneToolCall, respond, SingleExchangeTransport } from './single-exchange.transport.js';
import { parseToolArguments } from './tool-arguments.js';
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
 * The MCP endpoint: Streamable HTTP, stateless (a server and transport per HTTP
 * request, no session), the thirteen svc.* tools. Each tool runs the same query or command as
 * its REST twin through the same metered pipeline (`MeteredPipeline`: the key, the tenant, the
 * route's own validation, the hold, the charge). Failures answer the REST problem body
 * (next_actions included) as a tool error and are never charged.
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
    private readonly pipeline: MeteredPipeline,
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
   * only a paid tool answers the 401, as a tool error with its next step (the official
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
      const principal = this.pipeline.key(request);
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
    const call = single ? loneToolCall(message) : undefined;
    if (single && call) {
      // No per-request Server for the common call: the handler it would register, answered as
      // its Protocol answers (its construction, dispatch and result parse were ~35 µs a call).
      const answer = respond(message.id, () => this.toolsCall(request)(call));
      return this.answerSingle(response, answer, () => undefined);
    }
    const server = this.server(request);
    if (single) {
      const exchange = new SingleExchangeTransport();
      await server.connect(exchange);
      exchange.onmessage?.(message, {
        requestInfo: { headers: request.raw.headers as Record<string, string> },
      });
      // Closed only when the client left first (it aborts the handler): closing an answered
      // exchange builds the SDK's ConnectionClosed error with its stack, 28 µs a call for nothing.
      return this.answerSingle(response, exchange.answer, () => void server.close());
    }
    response.on('close', () => void server.close());
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      // JSON unless the client prefers a stream: it must accept both (the transport checks).
      enableJsonResponse: prefersJson(request.raw.headers.accept, JSON_OVER_STREAM),
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

  /** Writes the answer of a single exchange as JSON, unless the client left first (`left`). */
  private async answerSingle(
    response: ServerResponse,
    answer: Promise<JSONRPCMessage>,
    left: () => void,
  ): Promise<void> {
    const sent = await Promise.race([answer, once(response, 'close').then(() => null)]);
    if (sent === null) return left();
    const body = JSON.stringify(sent);
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    response.end(body);
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
    server.setRequestHandler(CallToolRequestSchema, this.toolsCall(request));
    return server;
  }

  /**
   * The tools/call handler for one HTTP request: the one its Server registers, and the one that
   * answers a lone call without a Server. A charge names the call by the server's request id and
   * the call's rank in it: the JSON-RPC id is the client's choice.
   */
  private toolsCall(request: McpHttpRequest): (call: CallToolRequest) => Promise<CallToolResult> {
    let calls = 0;
    return (call) => this.call(request, call.params.name, call.params.arguments ?? {}, ++calls);
  }

  /**
   * One tools/call: the tool's REST twin through the metered pipeline (key, tenant, the route's
   * own validation, hold, the same query or command, the charge), its failures as tool errors.
   */
  private async call(
    request: McpHttpRequest,
    name: string,
    args: Record<string, unknown>,
    /** The call's rank in its HTTP request (1 unless the client batched calls). */
    callNumber: number,
  ): Promise<CallToolResult> {
    const tool = publishedTool(name);
    if (!tool) throw unknownTool(name);
    try {
      // The tool's door without a key is REST's: counted as a signup from the address first.
      if (tool.endpoint.auth === 'none')
        await this.anonymous.check('signup', { ip: request.ip, method: 'POST', url: `${AGENT_API_PREFIX}/mcp` });
      const baseUrl = publicBaseUrl(request, this.config);
      const { data, charged } = await this.pipeline.run(
        request,
        tool.endpoint,
        () => parseToolArguments(tool, args),
        (parts, { tenant }) =>
          tool.definition.run(parts, {
            queries: this.queries,
            commands: this.commands,
            tenant,
            baseUrl,
          }) as Promise<Record<string, unknown>>,
        // A charge names the request by the server's own ids: the JSON-RPC id is the client's choice.
        `${request.id ?? 'mcp'}:${callNumber}`,
      );
      return {
        content: [
          {
            type: 'text',
            text: resultText(data, readsStructuredContent(request.raw.headers['mcp-protocol-version'])),
          },
        ],
        structuredContent: data,
        _meta: charged
          ? { credits_charged_usd: charged.priceCents / 100, credits_balance_usd: charged.balanceCents / 100 }
          : { credits_charged_usd: 0 },
      };
    } catch (error) {
      return this.failure(request, tool, error);
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
