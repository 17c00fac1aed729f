import { Controller, Get, Inject, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { Operation } from '#http';
import { CLOCK, type Clock } from '#kernel';
import { AgentAuth, agentEnvelope, type AgentPrincipal, CurrentAgent } from '#agent-contract';
import { AUTH } from '../../http/billing.http.js';
import { GetLedgerQuery } from './get-ledger.query.js';
import { type LedgerQuery, ledgerQuery, ledgerResponseSchema } from './get-ledger.schema.js';

@Controller('api/v1')
export class GetLedgerController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('billing/ledger')
  @AgentAuth()
  @Operation({
    summary: 'The account’s credits ledger, oldest first',
    description:
      '`{data: [{id, sequence, type, meter, request_id, amount_usd, balance_after_usd, recorded_at, …}], next_cursor, has_more}`: every purchase, grant, charge, refund and autopay step of the key’s account, in the order the ledger recorded them, each with the balance right after it. Pass `next_cursor` as `after` to continue (it is kept when a page is empty, so polling with it returns only new entries). `amount_usd` is negative for a charge and positive for credits in; `request_id` names the request a charge was made for. Not metered.',
    tags: ['agent billing'],
    operationId: 'billingLedger',
    query: ledgerQuery,
    responses: {
      200: { description: 'A page of the ledger in the envelope.', schema: ledgerResponseSchema },
      400: {
        description:
          'VALIDATION_FAILED: a limit out of range, or an `after` that is not a next_cursor of this account.',
      },
      401: { description: 'No key, or one that does not work.' },
    },
    security: AUTH,
  })
  async ledger(@Query() query: LedgerQuery, @CurrentAgent() agent: AgentPrincipal) {
    return agentEnvelope(
      this.clock.now(),
      await this.queries.execute(new GetLedgerQuery(agent, query.after, query.limit)),
    );
  }
}
