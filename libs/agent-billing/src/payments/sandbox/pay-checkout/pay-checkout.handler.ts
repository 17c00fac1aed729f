import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { PATHS } from '#agent-contract';
import { PaymentFulfilment } from '../../payment-fulfilment.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../../payment-provider.port.js';
import { sandboxOf } from '../sandbox-provider.js';
import { type PaidSandboxCheckout, PaySandboxCheckoutCommand } from './pay-checkout.command.js';

/** Through the same fulfilment as Stripe's webhook: paying twice credits once. */
@CommandHandler(PaySandboxCheckoutCommand)
export class PaySandboxCheckoutHandler implements ICommandHandler<PaySandboxCheckoutCommand, PaidSandboxCheckout> {
  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly fulfilment: PaymentFulfilment,
  ) {}

  async execute({ sessionId }: PaySandboxCheckoutCommand): Promise<PaidSandboxCheckout> {
    const completed = await sandboxOf(this.provider).completeCheckout(sessionId);
    const fulfilled = await this.fulfilment.checkoutCompleted(completed);
    return {
      paid: true,
      session_id: completed.sessionId,
      account_id: fulfilled.accountId,
      pack_id: completed.packId,
      credited: fulfilled.credited,
      credits_usd: fulfilled.creditsCents / 100,
      balance_usd: fulfilled.balanceCents / 100,
      workspace: fulfilled.workspace,
      ...(fulfilled.opened
        ? { claim_url: `${PATHS.checkoutSuccess}?session_id=${encodeURIComponent(completed.sessionId)}` }
        : {}),
    };
  }
}
