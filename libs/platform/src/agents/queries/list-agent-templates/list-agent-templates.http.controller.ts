import { Controller, Get } from '@nestjs/common';
import { z } from 'zod';
import { type ListPage, listPageSchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import { PlatformAuth, RequireScope } from '#access';
import { AGENT_TEMPLATE_IDS, AGENT_TEMPLATES } from '../../agent-templates.js';

const agentTemplateViewSchema = z
  .object({ id: z.enum(AGENT_TEMPLATE_IDS), name: z.string(), description: z.string() })
  .meta({ id: 'AgentTemplate' });
type AgentTemplateView = z.output<typeof agentTemplateViewSchema>;

const PAGE: ListPage<AgentTemplateView> = {
  data: AGENT_TEMPLATES.map((t) => ({ id: t.id, name: t.name, description: t.description })),
  has_more: false,
  next_cursor: null,
};

/** The fixed template list (a static answer, no query). */
@Controller('v1/agent-templates')
@PlatformAuth()
export class ListAgentTemplatesController {
  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List agent templates',
    description: 'Scope `read`. The templates an agent can be made from; the list is fixed (one page).',
    tags: ['agents'],
    operationId: 'listAgentTemplates',
    responses: {
      200: {
        description: 'Every template.',
        schema: listPageSchema(agentTemplateViewSchema).meta({ id: 'AgentTemplateList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(): ListPage<AgentTemplateView> {
    return PAGE;
  }
}
