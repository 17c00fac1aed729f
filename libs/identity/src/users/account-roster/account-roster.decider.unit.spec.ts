import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import type { UserRole } from '../user.events.js';
import { accountRosterDecider } from './account-roster.decider.js';
import type { AccountRosterEvent } from './account-roster.events.js';

const spec = deciderSpec(accountRosterDecider);
const now = new Date('2026-03-01T10:00:00Z');
const at = now.toISOString();
const added = (userId: string, role: UserRole): AccountRosterEvent => ({
  type: 'AccountMemberAdded',
  data: { account_id: 'acct_1', user_id: userId, role, added_at: at },
});
const changeRole = (userId: string, role: UserRole) =>
  ({ type: 'ChangeMemberRole', accountId: 'acct_1', userId, role, now }) as const;
const remove = (userId: string) => ({ type: 'RemoveMember', accountId: 'acct_1', userId, now }) as const;

describe('account roster decider', () => {
  it('adds a member with a role', () =>
    spec
      .given([added('usr_a', 'admin')])
      .when({ type: 'AddMember', accountId: 'acct_1', userId: 'usr_m', role: 'member', now })
      .then([added('usr_m', 'member')]));

  it('refuses to add a member twice and an unknown role', () => {
    spec
      .given([added('usr_a', 'admin')])
      .when({ type: 'AddMember', accountId: 'acct_1', userId: 'usr_a', role: 'member', now })
      .thenThrows((e) => e.code === 'MEMBER_EXISTS');
    spec
      .given([])
      .when({ type: 'AddMember', accountId: 'acct_1', userId: 'usr_x', role: 'owner' as 'admin', now })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'role');
  });

  it('promotes a member and demotes an admin while another admin stays', () => {
    spec
      .given([added('usr_a', 'admin'), added('usr_m', 'member')])
      .when(changeRole('usr_m', 'admin'))
      .then([
        {
          type: 'AccountMemberRoleChanged',
          data: { account_id: 'acct_1', user_id: 'usr_m', from: 'member', role: 'admin', changed_at: at },
        },
      ]);
    spec
      .given([added('usr_a', 'admin'), added('usr_b', 'admin')])
      .when(changeRole('usr_b', 'member'))
      .then([
        {
          type: 'AccountMemberRoleChanged',
          data: { account_id: 'acct_1', user_id: 'usr_b', from: 'admin', role: 'member', changed_at: at },
        },
      ]);
  });

  it('records nothing when the role asked for is the one the user has', () =>
    spec
      .given([added('usr_a', 'admin')])
      .when(changeRole('usr_a', 'admin'))
      .then([]));

  it('refuses to demote or remove the last admin, with a clear conflict', () => {
    const history = [added('usr_a', 'admin'), added('usr_m', 'member')];
    const isLastAdmin = (e: { code: string; status?: number; message: string }) =>
      e.code === 'LAST_ADMIN' && /last admin/.test(e.message);
    spec.given(history).when(changeRole('usr_a', 'member')).thenThrows(isLastAdmin);
    spec.given(history).when(remove('usr_a')).thenThrows(isLastAdmin);
  });

  it('counts admins after demotions and removals: the second of two demotions is refused', () => {
    const twoAdmins = [added('usr_a', 'admin'), added('usr_b', 'admin')];
    const demotedA: AccountRosterEvent = {
      type: 'AccountMemberRoleChanged',
      data: { account_id: 'acct_1', user_id: 'usr_a', from: 'admin', role: 'member', changed_at: at },
    };
    spec
      .given([...twoAdmins, demotedA])
      .when(changeRole('usr_b', 'member'))
      .thenThrows((e) => e.code === 'LAST_ADMIN');
    spec
      .given([
        ...twoAdmins,
        {
          type: 'AccountMemberRemoved',
          data: { account_id: 'acct_1', user_id: 'usr_a', role: 'admin', removed_at: at },
        },
      ])
      .when(remove('usr_b'))
      .thenThrows((e) => e.code === 'LAST_ADMIN');
  });

  it('removes a member, naming the role they had', () =>
    spec
      .given([added('usr_a', 'admin'), added('usr_m', 'member')])
      .when(remove('usr_m'))
      .then([
        {
          type: 'AccountMemberRemoved',
          data: { account_id: 'acct_1', user_id: 'usr_m', role: 'member', removed_at: at },
        },
      ]));

  it('refuses to change or remove a user who is not a member', () => {
    spec
      .given([added('usr_a', 'admin')])
      .when(changeRole('usr_x', 'admin'))
      .thenThrows((e) => e.code === 'USER_NOT_FOUND');
    spec
      .given([
        added('usr_a', 'admin'),
        {
          type: 'AccountMemberRemoved',
          data: { account_id: 'acct_1', user_id: 'usr_m', role: 'member', removed_at: at },
        },
      ])
      .when(remove('usr_m'))
      .thenThrows((e) => e.code === 'USER_NOT_FOUND');
  });
});
