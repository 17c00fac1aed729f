import { assertNever, type Decider, Errors } from '#kernel';
import type { UserEmailEvent } from './user.events.js';

/**
 * How long a reservation whose user stream does not exist yet is taken to be a creation still in
 * progress. Past it, the creator stopped between its two appends and the address is free again.
 */
export const UNCLAIMED_RESERVATION_GRACE_MS = 60_000;

export type UserEmailCommand = {
  type: 'ReserveEmail';
  userId: string;
  accountId: string;
  /** Whether the current holder's `user-{id}` stream exists (read by the handler). */
  holderExists: boolean;
  now: Date;
};

export type UserEmailState =
  { status: 'free' } | { status: 'reserved'; userId: string; accountId: string; reservedAt: string };

export const userEmailDecider: Decider<UserEmailCommand, UserEmailEvent, UserEmailState> = {
  initialState: { status: 'free' },

  evolve(state, event) {
    switch (event.type) {
      case 'UserEmailReserved':
        return {
          status: 'reserved',
          userId: event.data.user_id,
          accountId: event.data.account_id,
          reservedAt: event.data.reserved_at,
        };
      case 'UserEmailReleased':
        return state.status === 'reserved' && state.userId === event.data.user_id ? { status: 'free' } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ReserveEmail': {
        const reserved: UserEmailEvent = {
          type: 'UserEmailReserved',
          data: { user_id: command.userId, account_id: command.accountId, reserved_at: command.now.toISOString() },
        };
        if (state.status === 'free') return [reserved];
        const age = command.now.getTime() - Date.parse(state.reservedAt);
        if (command.holderExists || age < UNCLAIMED_RESERVATION_GRACE_MS)
          throw Errors.conflict('A user with this email exists already.', 'USER_EMAIL_TAKEN');
        return [
          {
            type: 'UserEmailReleased',
            data: { user_id: state.userId, reason: 'user_never_created', released_at: command.now.toISOString() },
          },
          reserved,
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};
