import type { UserRole } from '../user.events.js';

/**
 * Stored event types of `account-users-{accountId}` streams: who belongs to an account and with
 * which role. The "at least one admin" rule spans an account's users, so no single `user-{id}`
 * stream can decide it; this stream, appended with an exact expected revision, can (ADR 0083).
 * Names are stable: never rename.
 */
export type AccountRosterEvent =
  | { type: 'AccountMemberAdded'; data: { account_id: string; user_id: string; role: UserRole; added_at: string } }
  | {
      type: 'AccountMemberRoleChanged';
      data: { account_id: string; user_id: string; from: UserRole; role: UserRole; changed_at: string };
    }
  | {
      type: 'AccountMemberRemoved';
      data: { account_id: string; user_id: string; role: UserRole; removed_at: string };
    };

export const ACCOUNT_ROSTER_EVENT_TYPES: AccountRosterEvent['type'][] = [
  'AccountMemberAdded',
  'AccountMemberRoleChanged',
  'AccountMemberRemoved',
];

export const accountRosterStream = (accountId: string) => `account-users-${accountId}`;
