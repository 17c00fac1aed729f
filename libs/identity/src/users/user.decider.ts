import { assertNever, type Decider, type ErrorDetail, Errors } from '#kernel';
import { USER_ROLES, type UserEvent, type UserRole } from './user.events.js';

export type UserCommand =
  | {
      type: 'CreateUser';
      userId: string;
      accountId: string;
      email: string;
      role: UserRole;
      passwordHash: string;
      now: Date;
    }
  | {
      /** The handler checked the current password (`changed`) or consumed a reset token (`reset`). */
      type: 'ChangePassword';
      passwordHash: string;
      reason: 'changed' | 'reset';
      now: Date;
    }
  | { type: 'ChangeUserRole'; role: UserRole; now: Date }
  | { type: 'RemoveUser'; now: Date };

export type UserState =
  | { status: 'absent' }
  | { status: 'active'; userId: string; accountId: string; email: string; role: UserRole; passwordHash: string }
  | { status: 'removed'; userId: string; accountId: string };

/** RFC 5321's limits (254 in all, 64 before the @); one @, a dot in the domain, no blanks. */
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@.]+(\.[^\s@.]+)+$/;

export function emailProblems(email: string): ErrorDetail[] {
  const trimmed = email.trim();
  if (trimmed.length > 254 || !EMAIL_PATTERN.test(trimmed) || /[\p{Cc}]/u.test(trimmed))
    return [{ path: 'email', message: 'must be an email address (name@example.com), at most 254 characters' }];
  return [];
}

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'UserCreated': {
        const d = event.data;
        return {
          status: 'active',
          userId: d.user_id,
          accountId: d.account_id,
          email: d.email,
          role: d.role,
          passwordHash: d.password_hash,
        };
      }
      case 'UserPasswordChanged':
        return state.status === 'active' ? { ...state, passwordHash: event.data.password_hash } : state;
      case 'UserRoleChanged':
        return state.status === 'active' ? { ...state, role: event.data.role } : state;
      case 'UserRemoved':
        return { status: 'removed', userId: event.data.user_id, accountId: event.data.account_id };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateUser': {
        if (state.status !== 'absent') throw Errors.conflict('The user exists already.', 'USER_EXISTS');
        const details = emailProblems(command.email);
        if (!USER_ROLES.includes(command.role))
          details.push({ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` });
        if (!command.passwordHash.startsWith('$argon2id$'))
          details.push({ path: 'password_hash', message: 'must be an argon2id hash' });
        if (details.length) throw Errors.validation(details);
        return [
          {
            type: 'UserCreated',
            data: {
              user_id: command.userId,
              account_id: command.accountId,
              email: command.email.trim(),
              role: command.role,
              password_hash: command.passwordHash,
              created_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ChangePassword': {
        if (state.status !== 'active') throw Errors.notFound('No such user.', 'USER_NOT_FOUND');
        if (!command.passwordHash.startsWith('$argon2id$'))
          throw Errors.validation([{ path: 'password_hash', message: 'must be an argon2id hash' }]);
        return [
          {
            type: 'UserPasswordChanged',
            data: {
              user_id: state.userId,
              account_id: state.accountId,
              password_hash: command.passwordHash,
              reason: command.reason,
              changed_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ChangeUserRole': {
        if (state.status !== 'active') throw Errors.notFound('No such user.', 'USER_NOT_FOUND');
        if (!USER_ROLES.includes(command.role))
          throw Errors.validation([{ path: 'role', message: `must be one of ${USER_ROLES.join(', ')}` }]);
        if (state.role === command.role) return [];
        return [
          {
            type: 'UserRoleChanged',
            data: {
              user_id: state.userId,
              account_id: state.accountId,
              from: state.role,
              role: command.role,
              changed_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'RemoveUser': {
        if (state.status !== 'active') throw Errors.notFound('No such user.', 'USER_NOT_FOUND');
        return [
          {
            type: 'UserRemoved',
            data: { user_id: state.userId, account_id: state.accountId, removed_at: command.now.toISOString() },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
