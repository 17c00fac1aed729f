import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { AgentAuth, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH } from '../../http/billing.http.js';
import { GetAutopayQuery } from './get-autopay.query.js';
import { autopayResponseSchema } from '../billing.response-schemas.js';

@Controller('api/v1')
export class GetAutopayController {
  constructor(private readonly queries: QueryBus) {}

  @Get('billing/autopay')
  @AgentAuth()
  @Operation({
    summary: 'Autopay state (D19)',
    tags: ['agent billing'],
    description:
      'Whether autopay is on, the pack it buys and the saved payment method it charges, why it was turned off, its last failure and a top-up in progress; with the balance. Needs a key.',
    operationId: 'billingAutopay',
    responses: { 200: { description: 'Autopay state and balance.', schema: autopayResponseSchema } },
    security: AUTH,
  })
  autopay(@CurrentAgent() agent: AgentPrincipal) {
    return this.queries.execute(new GetAutopayQuery(agent));
  }
}
