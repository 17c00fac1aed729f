import { Query } from '@nestjs/cqrs';
import type { UserDoc } from '../../users.projection.js';

/** The users of an account, oldest first (the dashboard's users page). */
export class ListAccountUsersQuery extends Query<UserDoc[]> {
  constructor(readonly accountId: string) {
    super();
  }
}
