import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { DisableAutopayCommand } from './disable-autopay.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(DisableAutopayCommand)
export class DisableAutopayHandler implements ICommandHandler<
  DisableAutopayCommand,
  Awaited<ReturnType<BillingService['disableAutopay']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({ agent }: DisableAutopayCommand): Promise<Awaited<ReturnType<BillingService['disableAutopay']>>> {
    return Promise.resolve(this.billing.disableAutopay(agent));
  }
}
