import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { ID_GENERATOR, type IdGenerator } from '#kernel';
import { BillingService } from '../billing.service.js';
import { ChargeTopupCommand } from './charge-topup.command.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@CommandHandler(ChargeTopupCommand)
export class ChargeTopupHandler implements ICommandHandler<
  ChargeTopupCommand,
  Awaited<ReturnType<BillingService['chargeTopup']>>
> {
  constructor(
    private readonly billing: BillingService,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  execute({
    agent,
    body,
    idempotencyKey,
    baseUrl,
  }: ChargeTopupCommand): Promise<Awaited<ReturnType<BillingService['chargeTopup']>>> {
    // The provider-side idempotency key: the client's (per account) when given, else a fresh one.
    const providerKey = idempotencyKey ? `topup-${agent.accountId}-${idempotencyKey}` : `topup-${this.ids.next('att')}`;
    return Promise.resolve(this.billing.chargeTopup(agent, body, providerKey, baseUrl));
  }
}
