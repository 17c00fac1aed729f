import type { ServerResponse } from 'node:http';
import { Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { AppError } from '#kernel';
import { Operation } from '#http';
import { AgentAuthOptional } from '../auth/agent-auth.js';
import { mcpEventStreamSchema, mcpRequestSchema, mcpResponseSchema } from './mcp.openapi.js';
import { McpService } from './mcp.service.js';

interface HijackableReply {
  raw: ServerResponse;
  hijack(): void;
}

@Controller('api/v1/mcp')
export class McpController {
  constructor(private readonly mcp: McpService) {}

  @Post()
  @HttpCode(200)
  @AgentAuthOptional()
  @Operation({
    summary: 'MCP endpoint (Streamable HTTP, stateless)',
    description:
      'Model Context Protocol over Streamable HTTP: POST one JSON-RPC message (initialize, tools/list, tools/call); the answer is JSON, or an event stream when the client lists text/event-stream first in Accept (both must be accepted). No session is kept: every request stands alone. Tools: svc.signup, svc.get_top_discovery, svc.get_company, svc.get_company_score and the nine svc.workspace.* tools, each the same operation as its REST route with the same meter. Send the key as x-api-key or Authorization: Bearer on the HTTP request (svc.signup and tools/list need none). A failed tool call is a tool error (isError) whose structuredContent is the REST problem body (402 with next_actions when out of credits); it is never charged. Paid results carry _meta.credits_charged_usd and _meta.credits_balance_usd.',
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
        description: 'Not a JSON-RPC message: a JSON-RPC error (-32700 or -32600) with id null.',
        schema: mcpResponseSchema,
      },
      401: { description: 'A key was sent that does not work (MISSING_AUTH, KEY_REVOKED, ...).' },
      406: {
        description: 'The client does not accept both application/json and text/event-stream: a JSON-RPC error.',
        schema: mcpResponseSchema,
      },
      415: { description: 'The body is not application/json: a JSON-RPC error.', schema: mcpResponseSchema },
      429: { description: 'RATE_LIMIT_EXCEEDED for the key (or for this address on svc.signup), with Retry-After.' },
    },
    // No key for initialize, tools/list and svc.signup; the paid and workspace tools need one.
    security: [{}, 'apiKey', 'bearer'],
  })
  async post(@Req() request: Parameters<McpService['handle']>[0], @Res() reply: HijackableReply): Promise<void> {
    reply.hijack();
    await this.mcp.handle(request, reply.raw);
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
    throw new AppError(
      405,
      'method_not_allowed',
      'METHOD_NOT_ALLOWED',
      'This MCP endpoint is stateless: POST each JSON-RPC message; there is no stream to open with GET and no session to end.',
      {},
      { Allow: 'POST' },
    );
  }
}
