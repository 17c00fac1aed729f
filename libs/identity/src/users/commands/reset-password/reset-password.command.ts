import { Command } from '@nestjs/cqrs';

/** A new password through a reset token: the token is used up, and every session of the user ends. */
export class ResetPasswordCommand extends Command<{ userId: string }> {
  constructor(readonly input: { token: string; newPassword: string }) {
    super();
  }
}
