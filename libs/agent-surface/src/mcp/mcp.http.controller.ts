import type { ServerResponse } from 'node:http';
import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { HttpEdgeError, Operation } from '#http';
import { refusalBody } from './mcp-request.policy.js';
import { mcpEventStreamSchema, mcpRequestSchema, mcpResponseSchema } from './mcp.openapi.js';
import { McpService } from './mcp.service.js';

interface HijackableReply {
  raw: ServerResponse;
  hijack(): void;
  header(name: string, value: string): unknown;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  code(status: number): HijackableReply;
  type(contentType: string): HijackableReply;
  send(body: string): unknown;
}

@Controller('api/v1/mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  /**
   * No key guard: the Origin and Host are checked before the key (a foreign page's request is
   * refused before it is counted), and without a key the request counts against its address.
   */
  @Post()
  @HttpCode(200)
  @Operation({
    summary: 'MCP endpoint (Streamable HTTP, stateless)',
    description:
      'Model Context Protocol over Streamable HTTP: POST one JSON-RPC message (initialize, tools/list, tools/call); the answer is JSON, or an event stream when the client lists text/event-stream first in Accept (both must be accepted). No session is kept: every request stands alone. Tools: svc.signup, svc.get_top_discovery, svc.get_company, svc.get_company_score and the nine svc.workspace.* tools, each the same operation as its REST route with the same meter. Send the key as x-api-key or Authorization: Bearer on the HTTP request (initialize, tools/list and svc.signup need none; a key that does not work counts as none there, and a paid tool answers its 401 as a tool error). A failed tool call is a tool error (isError) whose structuredContent is the REST problem body (402 with next_actions when out of credits); it is never charged. Paid results carry _meta.credits_charged_usd and _meta.credits_balance_usd. A result’s data is its structuredContent; its text is the JSON of a single record, and for a page a summary (a line per item, the next cursor) to clients that send MCP-Protocol-Version 2025-06-18 or later (the JSON to older ones). A failure’s text names the code, each field error and the next call.',
    tags: ['agent mcp'],
    operationId: 'mcp',
    documentedBody: {
      description: 'One JSON-RPC message (or a batch).',
      required: true,
      content: { 'application/json': mcpRequestSchema },
    },
    responses: {
      200: {
        description: 'The JSON-RPC answer (application/json) or an event stream (text/event-stream).',
        contentTypes: { 'application/json': mcpResponseSchema, 'text/event-stream': mcpEventStreamSchema },
      },
      202: { description: 'Accepted: the message was a notification (or only responses); no body.' },
      400: {
        description:
          'A JSON-RPC error (id null): not a JSON-RPC message (-32700 or -32600), a batch under protocol version 2025-06-18 or later (BATCH_NOT_SUPPORTED), or a batch of more than SVC_MCP_MAX_BATCH messages (BATCH_TOO_LARGE).',
        schema: mcpResponseSchema,
      },
      403: {
        description:
          'A JSON-RPC error (id null): an Origin other than the service’s own or SVC_MCP_ALLOWED_ORIGINS (ORIGIN_NOT_ALLOWED), or with SVC_PUBLIC_URL set a Host that is not the service (HOST_NOT_ALLOWED).',
        schema: mcpResponseSchema,
      },
      406: {
        description: 'The client does not accept both application/json and text/event-stream: a JSON-RPC error.',
        schema: mcpResponseSchema,
      },
      415: { description: 'The body is not application/json: a JSON-RPC error.', schema: mcpResponseSchema },
      429: {
        description:
          'RATE_LIMIT_EXCEEDED, with Retry-After: the key’s budget, or without a key the client address’s (SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE). Each message of a batch counts; a later message over the budget is answered with the 429 body (a tool error for tools/call) while the earlier ones run.',
      },
    },
    // No key for initialize, tools/list and svc.signup; the paid and workspace tools need one.
    security: [{}, 'apiKey', 'bearer'],
  })
  async post(@Req() request: Parameters<McpService['admit']>[0], @Res() reply: HijackableReply): Promise<void> {
    const admission = await this.mcp.admit(request, reply);
    if ('refusal' in admission) {
      reply.code(admission.refusal.status).type('application/json').send(refusalBody(admission.refusal));
      return;
    }
    // The SDK writes the raw response: the headers set so far (request id, rate limit) go with it.
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined) reply.raw.setHeader(name, value);
    reply.hijack();
    await this.mcp.handle(request, reply.raw, admission.caller);
  }

  /** Stateless: no server-sent stream to open (GET) and no session to end (DELETE). */
  @Get()
  @Operation({
    summary: 'MCP endpoint: no stream to open (405)',
    description:
      'The endpoint is stateless: there is no server-initiated event stream. 405 METHOD_NOT_ALLOWED, Allow: POST.',
    tags: ['agent mcp'],
    operationId: 'mcpGet',
    responses: { 405: { description: 'METHOD_NOT_ALLOWED; Allow: POST.' } },
  })
  get(): never {
    return this.other();
  }

  @Delete()
  @Operation({
    summary: 'MCP endpoint: no session to end (405)',
    description: 'The endpoint is stateless: there is no session to delete. 405 METHOD_NOT_ALLOWED, Allow: POST.',
    tags: ['agent mcp'],
    operationId: 'mcpDelete',
    responses: { 405: { description: 'METHOD_NOT_ALLOWED; Allow: POST.' } },
  })
  delete(): never {
    return this.other();
  }

  private other(): never {
    throw new HttpEdgeError(
      405,
      'This MCP endpoint is stateless: POST each JSON-RPC message; there is no stream to open with GET and no session to end.',
      'METHOD_NOT_ALLOWED',
      { Allow: 'POST' },
    );
  }
}
