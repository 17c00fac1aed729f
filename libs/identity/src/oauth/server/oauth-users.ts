import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, type EventStore, loadState } from '#eventstore';
import { isId } from '#kernel';
import { userDecider } from '../../users/user.decider.js';
import { type UserRole, userStream } from '../../users/user.events.js';

/** A user as the authorization server needs it (the subject of a grant), from the user's stream. */
@Injectable()
export class OAuthUsers {
  constructor(@Inject(EVENT_STORE) private readonly events: EventStore) {}

  async byId(userId: string): Promise<{ userId: string; accountId: string; role: UserRole } | null> {
    if (!isId(userId, 'usr')) return null;
    const { state } = await loadState(this.events, userStream(userId), userDecider);
    return state.status === 'active' ? { userId, accountId: state.accountId, role: state.role } : null;
  }
}
