import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, Errors } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { SessionStore } from '../../../sessions/session.store.js';
import { AccountRoster } from '../../account-roster/account-roster.service.js';
import { userDecider } from '../../user.decider.js';
import { USER_ROLES, userStream } from '../../user.events.js';
import { USERS_PROJECTION } from '../../users.projection.js';
import { ChangeUserRoleCommand } from './change-user-role.command.js';

/**
 * The roster decides first (the last admin stays), then the user's stream records the role, then
 * the user's sessions end: they carry the role read at sign-in.
 */
@CommandHandler(ChangeUserRoleCommand)
export class ChangeUserRoleHandler implements ICommandHandler<ChangeUserRoleCommand, { changed: boolean }> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly roster: AccountRoster,
    private readonly sessions: SessionStore,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input }: ChangeUserRoleCommand): Promise<{ changed: boolean }> {
    if (!USER_ROLES.includes(input.role))
      throw Errors.validation([{ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` }]);
    const user = await this.roster.activeUser(input.accountId, input.userId);
    if (user.role === input.role) return { changed: false };
    const now = this.clock.now();
    await this.roster.apply(input.accountId, user, {
      type: 'ChangeMemberRole',
      accountId: input.accountId,
      userId: input.userId,
      role: input.role,
      now,
    });
    const { position } = await decideAndAppend(this.events, userStream(input.userId), userDecider, {
      type: 'ChangeUserRole',
      role: input.role,
      now,
    });
    await this.sessions.endForUser(input.userId);
    // The users page the admin is sent back to reads the users read model (read-your-writes).
    await this.readYourWrites.waitFor(position, [USERS_PROJECTION]);
    return { changed: true };
  }
}
