import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProjectionStore } from '#projections';
import { USERS_COLLECTION, USERS_PROJECTION, type UserDoc } from '../../users.projection.js';
import { ListAccountUsersQuery } from './list-account-users.query.js';

/** An account has a handful of users; the page shows them all on one page, up to this many. */
const MAX_USERS = 1000;

@QueryHandler(ListAccountUsersQuery)
export class ListAccountUsersHandler implements IQueryHandler<ListAccountUsersQuery, UserDoc[]> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute({ accountId }: ListAccountUsersQuery): Promise<UserDoc[]> {
    const { items } = await this.projections
      .collection<UserDoc>(USERS_PROJECTION, USERS_COLLECTION)
      .find({ account_id: accountId }, { sort: [['created_at', 1]], limit: MAX_USERS });
    return items;
  }
}
