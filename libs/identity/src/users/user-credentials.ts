import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { userEmailDecider } from './user-email.decider.js';
import { userDecider } from './user.decider.js';
import { userEmailStream, type UserRole, userStream } from './user.events.js';

export interface UserCredentials {
  userId: string;
  accountId: string;
  email: string;
  role: UserRole;
  passwordHash: string;
}

/**
 * A user by email, read from the event store (the address's reservation, then the user's
 * stream) rather than a read model: a user the CLI has just created can sign in at once, and
 * the password hash never leaves the user's stream.
 */
@Injectable()
export class UserCredentialsLookup {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async byEmail(email: string): Promise<UserCredentials | null> {
    const { state: reservation } = await loadState(this.events, userEmailStream(email), userEmailDecider);
    if (reservation.status !== 'reserved') return null;
    const { state: user } = await loadState(this.events, userStream(reservation.userId), userDecider);
    if (user.status !== 'active') return null;
    return {
      userId: user.userId,
      accountId: user.accountId,
      email: user.email,
      role: user.role,
      passwordHash: user.passwordHash,
    };
  }
}
