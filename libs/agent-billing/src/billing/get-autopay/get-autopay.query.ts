import { Query } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';

/** Autopay state and balance (D19). */
export class GetAutopayQuery extends Query<Awaited<ReturnType<BillingService['autopay']>>> {
  constructor(readonly agent: AgentPrincipal) {
    super();
  }
}
