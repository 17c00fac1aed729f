import { Command } from '@nestjs/cqrs';
import type { AgentPrincipal } from '#agent-contract';
import type { BillingService } from '../billing.service.js';
import type { TopupChargeBody } from './charge-topup.schema.js';

/**
 * Charge a saved payment method for a pack, off-session. `idempotencyKey` is the client's
 * Idempotency-Key, if it sent one: the payment's idempotency key at the provider derives from it.
 */
export class ChargeTopupCommand extends Command<Awaited<ReturnType<BillingService['chargeTopup']>>> {
  constructor(
    readonly agent: AgentPrincipal,
    readonly body: TopupChargeBody,
    readonly idempotencyKey: string | undefined,
    readonly baseUrl: string,
  ) {
    super();
  }
}
