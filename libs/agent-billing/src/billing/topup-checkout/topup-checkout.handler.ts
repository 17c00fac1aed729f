import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { CreateTopupCheckoutCommand } from './topup-checkout.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(CreateTopupCheckoutCommand)
export class CreateTopupCheckoutHandler implements ICommandHandler<
  CreateTopupCheckoutCommand,
  Awaited<ReturnType<BillingService['topupCheckout']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({
    agent,
    body,
    baseUrl,
  }: CreateTopupCheckoutCommand): Promise<Awaited<ReturnType<BillingService['topupCheckout']>>> {
    return Promise.resolve(this.billing.topupCheckout(agent, body, baseUrl));
  }
}
