import { Controller, Get, Param, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { type ListPage, listPageSchema, listQuerySchema, Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { agentIdParams } from '../../../agents/agent.view.js';
import { RUN_STATUSES } from '../../run.events.js';
import { runViewSchema, type RunView } from '../../run.view.js';
import { ListRunsQuery } from './list-runs.query.js';

const status = z.enum(RUN_STATUSES).optional();
const listRunsQuery = listQuerySchema.extend({
  status,
  agent_id: z.string().min(1).max(64).optional(),
  repository_id: z.string().min(1).max(64).optional(),
});
const listAgentRunsQuery = listQuerySchema.extend({ status, repository_id: z.string().min(1).max(64).optional() });
const runList = listPageSchema(runViewSchema).meta({ id: 'RunList' });

@Controller('v1')
@PlatformAuth()
export class ListRunsController {
  constructor(private readonly queries: QueryBus) {}

  @Get('runs')
  @RequireScope('read')
  @Operation({
    summary: 'List runs',
    description:
      'Scope `read`. Most recently queued first; filter by `status`, `agent_id`, `repository_id`. Paginated by `limit` and `cursor`.',
    tags: ['runs'],
    operationId: 'listRuns',
    query: listRunsQuery,
    responses: {
      200: { description: 'A page of runs.', schema: runList, headers: RATE_LIMIT_HEADERS },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  list(
    @Query() query: z.output<typeof listRunsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<RunView>> {
    return this.queries.execute(
      new ListRunsQuery(
        principal.accountId,
        { status: query.status, agentId: query.agent_id, repositoryId: query.repository_id },
        query.limit,
        query.cursor,
      ),
    );
  }

  @Get('agents/:id/runs')
  @RequireScope('read')
  @Operation({
    summary: "List an agent's runs",
    description: 'Scope `read`. As `GET /v1/runs?agent_id=`, but 404 for an unknown agent.',
    tags: ['runs'],
    operationId: 'listAgentRuns',
    params: agentIdParams,
    query: listAgentRunsQuery,
    responses: {
      200: { description: 'A page of runs.', schema: runList, headers: RATE_LIMIT_HEADERS },
      404: { description: '`AGENT_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  listForAgent(
    @Param() params: z.output<typeof agentIdParams>,
    @Query() query: z.output<typeof listAgentRunsQuery>,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ListPage<RunView>> {
    return this.queries.execute(
      new ListRunsQuery(
        principal.accountId,
        { status: query.status, agentId: params.id, repositoryId: query.repository_id },
        query.limit,
        query.cursor,
        true,
      ),
    );
  }
}
