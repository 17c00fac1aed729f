import { Command } from '@nestjs/cqrs';
import type { UserRole } from '../../user.events.js';

export interface CreatedMember {
  userId: string;
  email: string;
  role: UserRole;
  /** Single-use reset token: the new user's way to choose a password. Shown once, never stored. */
  resetToken: string;
  resetExpiresAt: string;
}

/** Admin action (dashboard): a new user of the admin's account, who sets their own password. */
export class CreateMemberCommand extends Command<CreatedMember> {
  constructor(readonly input: { accountId: string; email: string; role: UserRole }) {
    super();
  }
}
