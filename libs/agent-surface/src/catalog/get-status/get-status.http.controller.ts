import { Controller, Get, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation, type RequestOrigin } from '#http';
import { AgentAuthOptional } from '#agent-contract';
import type { AgentStatusRequest } from '../agent-status.hook.js';
import { noQuery } from '../catalog.schemas.js';
import { statusSchema } from '../status.documents.js';
import { GetStatusQuery } from './get-status.query.js';

@Controller('api/v1/agents')
export class GetStatusController {
  constructor(private readonly queries: QueryBus) {}

  @Get('status')
  @AgentAuthOptional()
  @Operation({
    operationId: 'AgentsInformationController_getStatus',
    summary: 'Service status, meters and prices; with a key also the account',
    description:
      'Without a key: the public status. With x-api-key (or Authorization: Bearer): also the account, balance_usd, recent ledger entries and autopay state, counted against the key’s rate limit (X-RateLimit-* headers, 429 when spent); a key that does not work gets 401.',
    tags: ['agent information'],
    query: noQuery,
    responses: {
      200: { description: 'The status.', schema: statusSchema },
      401: { description: 'A key was sent and does not work.' },
    },
    security: [{}, 'apiKey', 'bearer'],
  })
  getStatus(@Req() request: RequestOrigin & AgentStatusRequest) {
    return this.queries.execute(new GetStatusQuery(request));
  }
}
