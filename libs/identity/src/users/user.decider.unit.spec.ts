import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { userDecider } from './user.decider.js';
import type { UserEvent } from './user.events.js';

const spec = deciderSpec(userDecider);
const now = new Date('2026-03-01T10:00:00Z');
const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';
const create = (over: Partial<{ email: string; role: 'admin' | 'member'; passwordHash: string }> = {}) => ({
  type: 'CreateUser' as const,
  userId: 'usr_1',
  accountId: 'acct_1',
  email: ' Ada@Example.com ',
  role: 'admin' as const,
  passwordHash: HASH,
  now,
  ...over,
});
const created: UserEvent = {
  type: 'UserCreated',
  data: {
    user_id: 'usr_1',
    account_id: 'acct_1',
    email: 'Ada@Example.com',
    role: 'admin',
    password_hash: HASH,
    created_at: now.toISOString(),
  },
};

describe('user decider', () => {
  it('creates a user with the email as typed (trimmed), the role and the hash', () =>
    spec.given([]).when(create()).then([created]));

  it('refuses a second creation of the same user', () =>
    spec
      .given([created])
      .when(create())
      .thenThrows((e) => e.code === 'USER_EXISTS'));

  it('refuses an address that is not one, an unknown role and a hash that is not argon2id', () => {
    for (const email of ['ada', 'ada@example', 'a b@example.com', '@example.com', 'ada@@example.com', 'ada@ex..com']) {
      spec
        .given([])
        .when(create({ email }))
        .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'email');
    }
    spec
      .given([])
      .when(create({ role: 'owner' as 'admin' }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'role');
    spec
      .given([])
      .when(create({ passwordHash: 'plain text' }))
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'password_hash');
  });

  it('changes the password of a user: the new hash, why, and when', () =>
    spec
      .given([created])
      .when({ type: 'ChangePassword', passwordHash: `${HASH}2`, reason: 'reset', now })
      .then([
        {
          type: 'UserPasswordChanged',
          data: {
            user_id: 'usr_1',
            account_id: 'acct_1',
            password_hash: `${HASH}2`,
            reason: 'reset',
            changed_at: now.toISOString(),
          },
        },
      ]));

  it('refuses a new password for no user, and a hash that is not argon2id', () => {
    spec
      .given([])
      .when({ type: 'ChangePassword', passwordHash: HASH, reason: 'changed', now })
      .thenThrows((e) => e.code === 'USER_NOT_FOUND');
    spec
      .given([created])
      .when({ type: 'ChangePassword', passwordHash: 'plain', reason: 'changed', now })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
  });

  const removed: UserEvent = {
    type: 'UserRemoved',
    data: { user_id: 'usr_1', account_id: 'acct_1', removed_at: now.toISOString() },
  };

  it('changes the role, naming the one before; the same role records nothing', () => {
    spec
      .given([created])
      .when({ type: 'ChangeUserRole', role: 'member', now })
      .then([
        {
          type: 'UserRoleChanged',
          data: {
            user_id: 'usr_1',
            account_id: 'acct_1',
            from: 'admin',
            role: 'member',
            changed_at: now.toISOString(),
          },
        },
      ]);
    spec.given([created]).when({ type: 'ChangeUserRole', role: 'admin', now }).then([]);
    spec
      .given([created])
      .when({ type: 'ChangeUserRole', role: 'owner' as 'admin', now })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
  });

  it('removes a user once; a removed user gets no new password, role or second removal', () => {
    spec.given([created]).when({ type: 'RemoveUser', now }).then([removed]);
    for (const command of [
      { type: 'RemoveUser' as const, now },
      { type: 'ChangeUserRole' as const, role: 'member' as const, now },
      { type: 'ChangePassword' as const, passwordHash: HASH, reason: 'reset' as const, now },
    ])
      spec
        .given([created, removed])
        .when(command)
        .thenThrows((e) => e.code === 'USER_NOT_FOUND');
  });
});
