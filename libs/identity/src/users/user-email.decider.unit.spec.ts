import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { UNCLAIMED_RESERVATION_GRACE_MS, userEmailDecider } from './user-email.decider.js';
import { normalizeEmail, userEmailStream, type UserEmailEvent } from './user.events.js';

const spec = deciderSpec(userEmailDecider);
const t0 = new Date('2026-03-01T10:00:00Z');
const later = (ms: number) => new Date(t0.getTime() + ms);
const reserved = (userId: string, at = t0): UserEmailEvent => ({
  type: 'UserEmailReserved',
  data: { user_id: userId, account_id: 'acct_1', reserved_at: at.toISOString() },
});
const reserve = (holderExists: boolean, now = t0) => ({
  type: 'ReserveEmail' as const,
  userId: 'usr_2',
  accountId: 'acct_1',
  holderExists,
  now,
});

describe('user email reservation decider', () => {
  it('reserves a free address', () =>
    spec
      .given([])
      .when(reserve(false))
      .then([reserved('usr_2')]));

  it('refuses an address whose user exists, however old the reservation', () =>
    spec
      .given([reserved('usr_1')])
      .when(reserve(true, later(365 * 24 * 3600_000)))
      .thenThrows((e) => e.kind === 'conflict' && e.code === 'USER_EMAIL_TAKEN'));

  it('refuses an address whose user is still being created (within the grace)', () =>
    spec
      .given([reserved('usr_1')])
      .when(reserve(false, later(UNCLAIMED_RESERVATION_GRACE_MS - 1)))
      .thenThrows((e) => e.code === 'USER_EMAIL_TAKEN'));

  it('releases a reservation whose user was never created, after the grace, and reserves it', () => {
    const now = later(UNCLAIMED_RESERVATION_GRACE_MS);
    spec
      .given([reserved('usr_1')])
      .when(reserve(false, now))
      .then([
        {
          type: 'UserEmailReleased',
          data: { user_id: 'usr_1', reason: 'user_never_created', released_at: now.toISOString() },
        },
        reserved('usr_2', now),
      ]);
  });

  it('names the stream by a digest of the normalised address', () => {
    assert.equal(normalizeEmail('  Ada@Example.COM '), 'ada@example.com');
    assert.equal(userEmailStream('Ada@Example.com'), userEmailStream(' ada@example.com'));
    assert.match(userEmailStream('ada@example.com'), /^useremail-[0-9a-f]{64}$/);
  });
});
