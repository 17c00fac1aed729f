import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';
import type { TopupCheckoutBody } from './topup-checkout.schema.js';

/** A hosted checkout for a top-up (the fallback when no card is saved). */
export class CreateTopupCheckoutCommand extends Command<Awaited<ReturnType<BillingService['topupCheckout']>>> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly body: TopupCheckoutBody,
    readonly baseUrl: string,
  ) {
    super();
  }
}
