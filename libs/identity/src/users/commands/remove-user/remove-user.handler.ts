import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore } from '#eventstore';
import { ReadYourWrites } from '#projections';
import { SessionStore } from '../../../sessions/session.store.js';
import { AccountRoster } from '../../account-roster/account-roster.service.js';
import { userDecider } from '../../user.decider.js';
import { userStream } from '../../user.events.js';
import { USERS_PROJECTION } from '../../users.projection.js';
import { RemoveUserCommand } from './remove-user.command.js';

/**
 * The roster decides first (the last admin stays), then the user's stream records the removal
 * (sign-in and reset look there, so they refuse at once), then every session of the user ends.
 */
@CommandHandler(RemoveUserCommand)
export class RemoveUserHandler implements ICommandHandler<RemoveUserCommand, void> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly roster: AccountRoster,
    private readonly sessions: SessionStore,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ input }: RemoveUserCommand): Promise<void> {
    const user = await this.roster.activeUser(input.accountId, input.userId);
    const now = this.clock.now();
    await this.roster.apply(input.accountId, user, {
      type: 'RemoveMember',
      accountId: input.accountId,
      userId: input.userId,
      now,
    });
    const { position } = await decideAndAppend(this.events, userStream(input.userId), userDecider, {
      type: 'RemoveUser',
      now,
    });
    await this.sessions.endForUser(input.userId);
    // The users page the admin is sent back to reads the users read model (read-your-writes).
    await this.readYourWrites.waitFor(position, [USERS_PROJECTION]);
  }
}
