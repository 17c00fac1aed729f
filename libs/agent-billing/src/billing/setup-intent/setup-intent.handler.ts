import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { CreateSetupIntentCommand } from './setup-intent.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(CreateSetupIntentCommand)
export class CreateSetupIntentHandler implements ICommandHandler<
  CreateSetupIntentCommand,
  Awaited<ReturnType<BillingService['setupIntent']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({ agent, baseUrl }: CreateSetupIntentCommand): Promise<Awaited<ReturnType<BillingService['setupIntent']>>> {
    return Promise.resolve(this.billing.setupIntent(agent, baseUrl));
  }
}
