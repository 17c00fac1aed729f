import { assertNever, type Decider, Errors } from '#kernel';
import { USER_ROLES, type UserRole } from '../user.events.js';
import type { AccountRosterEvent } from './account-roster.events.js';

export type AccountRosterCommand =
  | { type: 'AddMember'; accountId: string; userId: string; role: UserRole; now: Date }
  | { type: 'ChangeMemberRole'; accountId: string; userId: string; role: UserRole; now: Date }
  | { type: 'RemoveMember'; accountId: string; userId: string; now: Date };

/** Members by user id. Admins are counted from it: the invariant needs nothing else. */
export type AccountRosterState = { members: ReadonlyMap<string, UserRole> };

const adminCount = (state: AccountRosterState) => [...state.members.values()].filter((r) => r === 'admin').length;

const lastAdmin = () =>
  Errors.conflict('This is the last admin of the account: make another member an admin first.', 'LAST_ADMIN');

export const accountRosterDecider: Decider<AccountRosterCommand, AccountRosterEvent, AccountRosterState> = {
  initialState: { members: new Map() },

  evolve(state, event) {
    const members = new Map(state.members);
    switch (event.type) {
      case 'AccountMemberAdded':
      case 'AccountMemberRoleChanged':
        members.set(event.data.user_id, event.data.role);
        return { members };
      case 'AccountMemberRemoved':
        members.delete(event.data.user_id);
        return { members };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const current = state.members.get(command.userId);
    switch (command.type) {
      case 'AddMember': {
        if (current !== undefined) throw Errors.conflict('The user is a member already.', 'MEMBER_EXISTS');
        if (!USER_ROLES.includes(command.role))
          throw Errors.validation([{ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` }]);
        return [
          {
            type: 'AccountMemberAdded',
            data: {
              account_id: command.accountId,
              user_id: command.userId,
              role: command.role,
              added_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ChangeMemberRole': {
        if (current === undefined) throw Errors.notFound('No such user in this account.', 'USER_NOT_FOUND');
        if (!USER_ROLES.includes(command.role))
          throw Errors.validation([{ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` }]);
        // Asking for the role the user has changes nothing: no event, so no session ends.
        if (current === command.role) return [];
        if (current === 'admin' && adminCount(state) === 1) throw lastAdmin();
        return [
          {
            type: 'AccountMemberRoleChanged',
            data: {
              account_id: command.accountId,
              user_id: command.userId,
              from: current,
              role: command.role,
              changed_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RemoveMember': {
        if (current === undefined) throw Errors.notFound('No such user in this account.', 'USER_NOT_FOUND');
        if (current === 'admin' && adminCount(state) === 1) throw lastAdmin();
        return [
          {
            type: 'AccountMemberRemoved',
            data: {
              account_id: command.accountId,
              user_id: command.userId,
              role: current,
              removed_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
