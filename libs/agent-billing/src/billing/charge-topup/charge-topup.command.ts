import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';
import type { TopupChargeBody } from './charge-topup.schema.js';

/** Charge a saved payment method for a pack, off-session; `providerKey` is the idempotency key at the provider. */
export class ChargeTopupCommand extends Command<Awaited<ReturnType<BillingService['chargeTopup']>>> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly body: TopupChargeBody,
    readonly providerKey: string,
    readonly baseUrl: string,
  ) {
    super();
  }
}
