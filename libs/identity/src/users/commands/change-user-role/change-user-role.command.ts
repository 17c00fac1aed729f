import { Command } from '@nestjs/cqrs';
import type { UserRole } from '../../user.events.js';

/** Admin action (dashboard): another role for a user of the admin's account. */
export class ChangeUserRoleCommand extends Command<{ changed: boolean }> {
  constructor(readonly input: { accountId: string; userId: string; role: UserRole }) {
    super();
  }
}
