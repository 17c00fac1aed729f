import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { BillingService } from '../billing.service.js';
import { GetAutopayQuery } from './get-autopay.query.js';

/** The billing service holds the rules shared by the billing use cases (provider calls, ledger, autopay). */
@QueryHandler(GetAutopayQuery)
export class GetAutopayHandler implements IQueryHandler<
  GetAutopayQuery,
  Awaited<ReturnType<BillingService['autopay']>>
> {
  constructor(private readonly billing: BillingService) {}

  execute({ agent }: GetAutopayQuery): Promise<Awaited<ReturnType<BillingService['autopay']>>> {
    return Promise.resolve(this.billing.autopay(agent));
  }
}
