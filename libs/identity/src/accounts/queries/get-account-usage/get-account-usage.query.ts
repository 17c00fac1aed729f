import { Query } from '@nestjs/cqrs';
import type { AccountUsage } from '#access';

/** What an account has used of its rate-limit windows (D7) so far; reading it counts nothing. */
export class GetAccountUsageQuery extends Query<AccountUsage> {
  constructor(readonly accountId: string) {
    super();
  }
}
