import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { ACCOUNTS_COLLECTION, ACCOUNTS_PROJECTION, type AccountDoc } from '../../accounts.projection.js';
import { GetAccountQuery } from './get-account.query.js';
import type { AccountView } from './get-account.schema.js';

@QueryHandler(GetAccountQuery)
export class GetAccountHandler implements IQueryHandler<GetAccountQuery, AccountView> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute(query: GetAccountQuery): Promise<AccountView> {
    const doc = await this.projections
      .collection<AccountDoc>(ACCOUNTS_PROJECTION, ACCOUNTS_COLLECTION)
      .get(query.accountId);
    if (!doc) throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');
    return {
      id: doc.id,
      name: doc.name,
      plan: doc.plan,
      limits: { per_minute: doc.limits.per_minute, per_hour: doc.limits.per_hour },
      created_at: doc.created_at,
    };
  }
}
