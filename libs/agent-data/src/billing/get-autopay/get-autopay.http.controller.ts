import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '../../auth/agent-auth.js';
import { AUTH } from '../billing.http.js';
import { GetAutopayQuery } from './get-autopay.query.js';

@Controller('api/v1')
export class GetAutopayController {
  constructor(private readonly queries: QueryBus) {}

  @Get('billing/autopay')
  @AgentAuth()
  @Operation({
    summary: 'Autopay state (D19)',
    tags: ['agent billing'],
    operationId: 'billingAutopay',
    responses: { 200: { description: 'Autopay state and balance.' } },
    security: AUTH,
  })
  autopay(@CurrentAgent() agent: AgentPrincipal) {
    return this.queries.execute(new GetAutopayQuery(agent));
  }
}
