import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import {
  type CacheableDocument,
  cacheableResponses,
  Operation,
  type OperationSpec,
  type RequestOrigin,
  sendCacheable,
} from '#http';
import type { SiteDocumentName } from '../site-documents.js';
import { GetDescriptorQuery } from './get-descriptor.query.js';

type Request = RequestOrigin & { headers: Record<string, string | string[] | undefined> };

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  send(body?: string): unknown;
}

const json = z.looseObject({});
const descriptor = (operationId: string, summary: string, description: string, contentType: string): OperationSpec => ({
  operationId,
  summary,
  description: `${description} Public, no key; ETag and a five-minute Cache-Control.`,
  tags: ['descriptors'],
  responses: cacheableResponses('The descriptor.', {
    contentType,
    ...(contentType === 'application/json' ? { schema: json } : {}),
  }),
});

/**
 * The public descriptors at the site root, and the logo and terms page they link: no key, GET
 * (and HEAD), each with an ETag (304 on If-None-Match) and a five-minute Cache-Control. The
 * paths are SITE_DOCUMENTS' (DESCRIPTOR_PATHS); they are spelled out here so the path table of
 * docs/architecture.md lists them, and the descriptor tests request every row of SITE_DOCUMENTS.
 */
@Controller()
export class GetDescriptorController {
  constructor(private readonly queries: QueryBus) {}

  private async send(name: SiteDocumentName, request: Request, reply: Reply): Promise<void> {
    const document: CacheableDocument = await this.queries.execute(new GetDescriptorQuery(name, request));
    sendCacheable(request, reply, document);
  }

  @Get('llms.txt')
  @Operation(
    descriptor(
      'descriptorLlmsTxt',
      'llms.txt: the service explained for language models',
      'What the service sells, how to get a key and pay, and every operation and MCP tool, as Markdown text (llmstxt.org).',
      'text/plain',
    ),
  )
  llmsTxt(@Req() request: Request, @Res() reply: Reply) {
    return this.send('llms_txt', request, reply);
  }

  @Get('agent-feed.json')
  @Operation(
    descriptor(
      'descriptorAgentFeed',
      'Agent feed: operations, tools, packs and meters as JSON',
      'A JSON feed for agents and registries: the operations, MCP tools with their input schemas, packs and meter prices.',
      'application/json',
    ),
  )
  agentFeed(@Req() request: Request, @Res() reply: Reply) {
    return this.send('agent_feed', request, reply);
  }

  @Get('.well-known/ai-plugin.json')
  @Operation(
    descriptor(
      'descriptorAiPlugin',
      'AI plugin manifest (/.well-known/ai-plugin.json)',
      "The plugin manifest: name, description, auth, contact and the OpenAPI document's address.",
      'application/json',
    ),
  )
  aiPlugin(@Req() request: Request, @Res() reply: Reply) {
    return this.send('ai_plugin', request, reply);
  }

  @Get('.well-known/service-agent')
  @Operation(
    descriptor(
      'descriptorServiceAgent',
      'Service-agent descriptor (/.well-known/service-agent)',
      'Where an agent starts: the API base, authentication, the payment flow and the descriptor documents.',
      'application/json',
    ),
  )
  serviceAgent(@Req() request: Request, @Res() reply: Reply) {
    return this.send('service_agent', request, reply);
  }

  @Get('mcp/server.json')
  @Operation(
    descriptor(
      'descriptorMcpServer',
      'MCP server descriptor (/mcp/server.json)',
      'The MCP server entry for registries: its endpoint, transport and tools.',
      'application/json',
    ),
  )
  mcpServer(@Req() request: Request, @Res() reply: Reply) {
    return this.send('mcp_server', request, reply);
  }

  @Get('.well-known/mcp-server.json')
  @Operation(
    descriptor(
      'descriptorWellKnownMcpServer',
      'MCP server descriptor (/.well-known/mcp-server.json)',
      'The same MCP server entry at its well-known address.',
      'application/json',
    ),
  )
  wellKnownMcpServer(@Req() request: Request, @Res() reply: Reply) {
    return this.send('well_known_mcp_server', request, reply);
  }

  @Get('logo.svg')
  logo(@Req() request: Request, @Res() reply: Reply) {
    return this.send('logo', request, reply);
  }

  @Get('legal')
  legal(@Req() request: Request, @Res() reply: Reply) {
    return this.send('legal', request, reply);
  }
}
