import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentTemplateSchema, agentViewSchema, type AgentView } from '../../agent.view.js';
import { ListAgentsQuery } from './list-agents.query.js';

const listAgentsQuery = listQuerySchema.extend({ template: agentTemplateSchema.optional() });

@Controller('v1/agents')
@PlatformAuth()
export class ListAgentsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @RequireScope('read')
  @Operation({
    summary: 'List agents',
    description: 'Scope `read`. Newest first, optionally of one `template`. Paginated by `limit` and `cursor`.',
    tags: ['agents'],
    operationId: 'listAgents',
    query: listAgentsQuery,
    responses: {
      200: {
        description: 'A page of agents.',
        schema: listPageSchema(agentViewSchema).meta({ id: 'AgentList' }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listAgentsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<AgentView>> {
    return this.queries.execute(new ListAgentsQuery(principal.accountId, query.template, query.limit, query.cursor));
  }
}
