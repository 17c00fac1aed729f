import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors } from '#kernel';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { SessionStore } from '../../../sessions/session.store.js';
import { PASSWORD_HASHER, type PasswordHasher } from '../../password-hasher.port.js';
import { userDecider } from '../../user.decider.js';
import { userStream } from '../../user.events.js';
import { appendPasswordChange, newPasswordProblems } from '../../user-password.js';
import { ChangePasswordCommand } from './change-password.command.js';

/**
 * Checks the current password against the user's stream (a stolen session alone cannot take the
 * account), appends the new hash, then ends every other session of the user (OWASP: a password
 * change logs out the other browsers) and keeps the one that asked.
 */
@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand, { endedSessions: number }> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(PASSWORD_HASHER) private readonly hasher: PasswordHasher,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly sessions: SessionStore,
  ) {}

  async execute({ input }: ChangePasswordCommand): Promise<{ endedSessions: number }> {
    const details = newPasswordProblems(input.newPassword);
    if (input.newPassword === input.currentPassword)
      details.push({ path: 'new_password', message: 'must differ from the current password' });
    const { state } = await loadState(this.events, userStream(input.userId), userDecider);
    if (state.status !== 'active') throw Errors.notFound('No such user.', 'USER_NOT_FOUND');
    if (!(await this.hasher.verify(state.passwordHash, input.currentPassword)))
      throw Errors.validation([{ path: 'current_password', message: 'is not your current password' }]);
    if (details.length) throw Errors.validation(details);
    await appendPasswordChange(this.events, this.hasher, {
      userId: input.userId,
      newPassword: input.newPassword,
      reason: 'changed',
      now: this.clock.now(),
    });
    return { endedSessions: await this.sessions.endForUser(input.userId, input.keepSessionToken) };
  }
}
