import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentIdParams, agentViewSchema, type AgentView } from '../../agent.view.js';
import { GetAgentQuery } from './get-agent.query.js';

@Controller('v1/agents')
@PlatformAuth()
export class GetAgentController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('read')
  @Operation({
    summary: 'Get an agent',
    description: 'Scope `read`.',
    tags: ['agents'],
    operationId: 'getAgent',
    params: agentIdParams,
    responses: {
      200: { description: 'The agent.', schema: agentViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`AGENT_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(@Param() params: z.output<typeof agentIdParams>, @CurrentPrincipal() principal: Principal): Promise<AgentView> {
    return this.queries.execute(new GetAgentQuery(principal.accountId, params.id));
  }
}
