import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { ChargeTopupCommand } from './charge-topup.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(ChargeTopupCommand)
export class ChargeTopupHandler implements ICommandHandler<
  ChargeTopupCommand,
  Awaited<ReturnType<BillingService['chargeTopup']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({
    agent,
    body,
    providerKey,
    baseUrl,
  }: ChargeTopupCommand): Promise<Awaited<ReturnType<BillingService['chargeTopup']>>> {
    return Promise.resolve(this.billing.chargeTopup(agent, body, providerKey, baseUrl));
  }
}
