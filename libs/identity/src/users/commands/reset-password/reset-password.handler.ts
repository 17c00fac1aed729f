import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { SessionStore } from '../../../sessions/session.store.js';
import { PasswordResetTokens } from '../../password-reset/password-reset-tokens.store.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../../password-hasher.port.js';
import { appendPasswordChange, newPasswordProblems } from '../../user-password.js';
import { ResetPasswordCommand } from './reset-password.command.js';

export const resetTokenInvalid = () =>
  Errors.badRequest('RESET_TOKEN_INVALID', 'This reset link is not valid: it was used, it expired, or it never was.');

/**
 * The new password is checked first (a typo does not burn the link), then the token is used in
 * one atomic step (of two submissions, one wins), the hash appended, and every session of the
 * user ends: whoever held one with the old password holds nothing now.
 */
@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand, { userId: string }> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly tokens: PasswordResetTokens,
    private readonly sessions: SessionStore,
  ) {}

  async execute({ input }: ResetPasswordCommand): Promise<{ userId: string }> {
    const details = newPasswordProblems(input.newPassword);
    if (details.length) throw Errors.validation(details);
    const userId = await this.tokens.use(input.token);
    if (!userId) throw resetTokenInvalid();
    await appendPasswordChange(this.events, this.hasher, {
      userId,
      newPassword: input.newPassword,
      reason: 'reset',
      now: this.clock.now(),
    });
    await this.sessions.endForUser(userId);
    return { userId };
  }
}
