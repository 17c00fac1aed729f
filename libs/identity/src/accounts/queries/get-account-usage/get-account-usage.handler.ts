import { Inject } from '@nestjs/common';
import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { accountUsage, type AccountUsage, RATE_LIMIT_STORE, type RateLimitStore } from '#access';
import { CLOCK, type Clock } from '#kernel';
import { GetAccountUsageQuery } from './get-account-usage.query.js';

/**
 * The account's counters in the current 60 s and 3600 s windows, from the rate-limit store
 * that counts its requests (per process in the embedded mode, shared in MongoDB when scaled).
 */
@QueryHandler(GetAccountUsageQuery)
export class GetAccountUsageHandler implements IQueryHandler<GetAccountUsageQuery, AccountUsage> {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute(query: GetAccountUsageQuery): Promise<AccountUsage> {
    return accountUsage(this.store, query.accountId, this.clock.now());
  }
}
