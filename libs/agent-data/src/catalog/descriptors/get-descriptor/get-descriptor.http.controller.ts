import { Controller, Get, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { type CacheableDocument, type RequestOrigin, sendCacheable } from '#http';
import type { SiteDocumentName } from '../site-documents.js';
import { GetDescriptorQuery } from './get-descriptor.query.js';

type Request = RequestOrigin & { headers: Record<string, string | string[] | undefined> };

interface Reply {
  code(status: number): Reply;
  header(name: string, value: string): Reply;
  send(body?: string): unknown;
}

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
  llmsTxt(@Req() request: Request, @Res() reply: Reply) {
    return this.send('llms_txt', request, reply);
  }

  @Get('agent-feed.json')
  agentFeed(@Req() request: Request, @Res() reply: Reply) {
    return this.send('agent_feed', request, reply);
  }

  @Get('.well-known/ai-plugin.json')
  aiPlugin(@Req() request: Request, @Res() reply: Reply) {
    return this.send('ai_plugin', request, reply);
  }

  @Get('.well-known/service-agent')
  serviceAgent(@Req() request: Request, @Res() reply: Reply) {
    return this.send('service_agent', request, reply);
  }

  @Get('mcp/server.json')
  mcpServer(@Req() request: Request, @Res() reply: Reply) {
    return this.send('mcp_server', request, reply);
  }

  @Get('.well-known/mcp-server.json')
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
