import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { listQuerySchema, Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '../../auth/agent-auth.js';
import { ListAgentKeysQuery } from './list-keys.query.js';

@Controller('api/v1/agents/keys')
@AgentAuth()
export class ListAgentKeysController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @Operation({
    summary: 'List this account’s keys (newest first, revoked ones included)',
    tags: ['agent keys'],
    operationId: 'agentListKeys',
    query: listQuerySchema,
    responses: { 200: { description: 'A page of keys inside the {version, as_of, data} envelope (D6).' } },
    security: ['apiKey', 'bearer'],
  })
  async list(@Query() query: z.output<typeof listQuerySchema>, @CurrentAgent() agent: AgentPrincipal) {
    const data = await this.queries.execute(
      new ListAgentKeysQuery(agent.accountId, agent.keyId, query.limit, query.cursor),
    );
    return { version: 'v1', as_of: this.clock.now().toISOString(), data };
  }
}
