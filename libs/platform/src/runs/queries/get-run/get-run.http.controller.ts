import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { z } from 'zod';
import { Operation } from '#http';
import { platformErrorResponses, RATE_LIMIT_HEADERS } from '#identity';
import type { Principal } from '#access';
import { CurrentPrincipal, PlatformAuth, RequireScope } from '#access';
import { runIdParams, runViewSchema, type RunView } from '../../run.view.js';
import { GetRunQuery } from './get-run.query.js';

@Controller('v1/runs')
@PlatformAuth()
export class GetRunController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @RequireScope('read')
  @Operation({
    summary: 'Get a run',
    description: 'Scope `read`.',
    tags: ['runs'],
    operationId: 'getRun',
    params: runIdParams,
    responses: {
      200: { description: 'The run.', schema: runViewSchema, headers: RATE_LIMIT_HEADERS },
      404: { description: '`RUN_NOT_FOUND`.' },
      ...platformErrorResponses(),
    },
    security: ['bearer'],
  })
  get(@Param() params: z.output<typeof runIdParams>, @CurrentPrincipal() principal: Principal): Promise<RunView> {
    return this.queries.execute(new GetRunQuery(principal.accountId, params.id));
  }
}
