import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';

/** Start saving a payment method for off-session charges (its client secret to confirm). */
export class CreateSetupIntentCommand extends Command<Awaited<ReturnType<BillingService['setupIntent']>>> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly baseUrl: string,
  ) {
    super();
  }
}
