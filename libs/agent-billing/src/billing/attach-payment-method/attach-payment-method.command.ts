import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';
import type { AttachBody } from './attach-payment-method.schema.js';

/** Attach a confirmed payment method to the account. */
export class AttachPaymentMethodCommand extends Command<Awaited<ReturnType<BillingService['attach']>>> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly body: AttachBody,
  ) {
    super();
  }
}
