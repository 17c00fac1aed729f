import { Query } from '@nestjs/cqrs';

/** Whether a reset link's token is still good (unused, not expired), without using it up. */
export class CheckResetTokenQuery extends Query<boolean> {
  constructor(readonly token: string) {
    super();
  }
}
