import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { listPageSchema, listQuerySchema, Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent, envelopeSchema } from '#agent-contract';
import { CLOCK, type Clock } from '#kernel';
import { ListAgentKeysQuery } from './list-keys.query.js';

const agentKeyPageSchema = envelopeSchema(
  listPageSchema(
    z
      .object({
        id: z.string(),
        name: z.string(),
        prefix: z.string(),
        created_at: z.string(),
        revoked_at: z.string().nullable(),
        current: z.boolean().describe('The key that made this request.'),
      })
      .meta({ id: 'AgentKey' }),
  ),
  'AgentKeyPageResponse',
);

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
    description:
      'The keys of the calling key’s account, newest first, revoked ones included (with revoked_at); never a key’s secret value. Needs a key.',
    operationId: 'agentListKeys',
    query: listQuerySchema,
    responses: {
      200: {
        description: 'A page of keys inside the {version, as_of, data} envelope (D6).',
        schema: agentKeyPageSchema,
      },
    },
    security: ['apiKey', 'bearer'],
  })
  async list(@Query() query: z.output<typeof listQuerySchema>, @CurrentAgent() agent: AgentPrincipal) {
    const data = await this.queries.execute(
      new ListAgentKeysQuery(agent.accountId, agent.keyId, query.limit, query.cursor),
    );
    return { version: 'v1', as_of: this.clock.now().toISOString(), data };
  }
}
