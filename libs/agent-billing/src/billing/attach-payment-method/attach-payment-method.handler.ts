import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { AttachPaymentMethodCommand } from './attach-payment-method.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(AttachPaymentMethodCommand)
export class AttachPaymentMethodHandler implements ICommandHandler<
  AttachPaymentMethodCommand,
  Awaited<ReturnType<BillingService['attach']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({ agent, body }: AttachPaymentMethodCommand): Promise<Awaited<ReturnType<BillingService['attach']>>> {
    return Promise.resolve(this.billing.attach(agent, body));
  }
}
