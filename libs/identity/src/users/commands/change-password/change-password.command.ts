import { Command } from '@nestjs/cqrs';

/** The signed-in user's new password; the current one is required, and their other sessions end. */
export class ChangePasswordCommand extends Command<{ endedSessions: number }> {
  constructor(
    readonly input: { userId: string; currentPassword: string; newPassword: string; keepSessionToken?: string },
  ) {
    super();
  }
}
