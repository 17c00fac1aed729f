import { Command } from '@nestjs/cqrs';
import type { CommandOptions } from '#projections';
import type { UserRole } from '../../user.events.js';

export interface CreateUserResult {
  userId: string;
  accountId: string;
  email: string;
  role: UserRole;
  position: number;
}

/** Operator action (CLI): a user of a platform account who signs in with email and password. */
export class CreateUserCommand extends Command<CreateUserResult> {
  constructor(
    readonly input: { accountId: string; email: string; password: string; role: UserRole },
    readonly options: CommandOptions = {},
  ) {
    super();
  }
}
