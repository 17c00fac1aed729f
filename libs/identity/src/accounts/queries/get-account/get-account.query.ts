import { Query } from '@nestjs/cqrs';
import type { AccountView } from './get-account.schema.js';

export class GetAccountQuery extends Query<AccountView> {
  constructor(readonly accountId: string) {
    super();
  }
}
