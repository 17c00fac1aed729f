import { Injectable } from '@nestjs/common';
import type { AccountRateLimits, RateLimits } from '#access';
import { ProjectionStore } from '#projections';
import { PLAN_LIMITS } from './account.events.js';
import { ACCOUNTS_COLLECTION, ACCOUNTS_PROJECTION, type AccountDoc } from './accounts.projection.js';

/** ACCOUNT_RATE_LIMITS for the platform: the account's plan limits from the accounts read model. */
@Injectable()
export class PlatformAccountRateLimits implements AccountRateLimits {
  constructor(private readonly projections: ProjectionStore) {}

  async limitsOf(accountId: string): Promise<{ limits: RateLimits; cacheable: boolean }> {
    const account = await this.projections
      .collection<AccountDoc>(ACCOUNTS_PROJECTION, ACCOUNTS_COLLECTION)
      .get(accountId);
    // An account the read model does not show yet (projection lag) gets the smallest plan's limits.
    return account ? { limits: account.limits, cacheable: true } : { limits: PLAN_LIMITS.free, cacheable: false };
  }
}
