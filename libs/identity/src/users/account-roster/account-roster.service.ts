import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock, Errors } from '#kernel';
import { decideAndAppend, EVENT_STORE, type EventStore, loadState, WrongExpectedRevisionError } from '#eventstore';
import { ProjectionStore } from '#projections';
import { userDecider } from '../user.decider.js';
import { type UserRole, userStream } from '../user.events.js';
import { USERS_COLLECTION, USERS_PROJECTION, type UserDoc } from '../users.projection.js';
import { type AccountRosterCommand, accountRosterDecider } from './account-roster.decider.js';
import { accountRosterStream } from './account-roster.events.js';

/** Accounts have at most this many users on the roster's first write (the read model's page). */
const SEED_LIMIT = 1000;

/**
 * Writes an account's roster. Accounts made before the roster existed get one on its first use,
 * seeded from the users read model with expected revision `no_stream` (of two seeds one wins).
 * A user the read model has not yet shown is added from their own stream before the change, so
 * the roster can only undercount admins: it may refuse a demotion it could allow, never the reverse.
 */
@Injectable()
export class AccountRoster {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly projections: ProjectionStore,
  ) {}

  /** The user's state, if they are an active user of this account; otherwise 404. */
  async activeUser(accountId: string, userId: string) {
    const { state } = await loadState(this.events, userStream(userId), userDecider);
    if (state.status !== 'active' || state.accountId !== accountId)
      throw Errors.notFound('No such user in this account.', 'USER_NOT_FOUND');
    return state;
  }

  /** Appends after the "last admin" check, with the exact revision read (retried on a race). */
  async apply(
    accountId: string,
    user: { userId: string; role: UserRole },
    command: AccountRosterCommand,
  ): Promise<void> {
    await this.ensureMember(accountId, user);
    await decideAndAppend(this.events, accountRosterStream(accountId), accountRosterDecider, command);
  }

  /** A user created after the roster exists joins it; before, the seed will find them. */
  async joinIfStarted(accountId: string, user: { userId: string; role: UserRole }): Promise<void> {
    const { revision } = await loadState(this.events, accountRosterStream(accountId), accountRosterDecider);
    if (revision !== null) await this.ensureMember(accountId, user);
  }

  private async ensureMember(accountId: string, user: { userId: string; role: UserRole }): Promise<void> {
    const stream = accountRosterStream(accountId);
    for (let attempt = 0; ; attempt++) {
      const { state, revision } = await loadState(this.events, stream, accountRosterDecider);
      if (state.members.has(user.userId)) return;
      const now = this.clock.now();
      const members = new Map<string, UserRole>();
      if (revision === null) {
        const { items } = await this.projections
          .collection<UserDoc>(USERS_PROJECTION, USERS_COLLECTION)
          .find({ account_id: accountId }, { sort: [['created_at', 1]], limit: SEED_LIMIT });
        for (const doc of items) members.set(doc.id, doc.role);
      }
      members.set(user.userId, user.role);
      let folded = state;
      const events = [...members].flatMap(([userId, role]) => {
        const decided = accountRosterDecider.decide({ type: 'AddMember', accountId, userId, role, now }, folded);
        folded = decided.reduce(accountRosterDecider.evolve, folded);
        return decided;
      });
      try {
        await this.events.append(stream, events, revision ?? 'no_stream');
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= 3) throw error;
      }
    }
  }
}
