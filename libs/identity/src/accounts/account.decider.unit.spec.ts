import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { accountDecider } from './account.decider.js';
import type { AccountEvent } from './account.events.js';

const spec = deciderSpec(accountDecider);
const now = new Date('2026-03-01T10:00:00Z');
const created = (plan: 'free' | 'team' | 'enterprise', per_minute: number, per_hour: number): AccountEvent => ({
  type: 'AccountCreated',
  data: { account_id: 'acct_1', name: 'Acme', plan, limits: { per_minute, per_hour }, created_at: now.toISOString() },
});

describe('account decider', () => {
  it('creates a Team account with the spec limits (300/min, 10,000/h)', () =>
    spec
      .given([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: ' Acme ', plan: 'team', now })
      .then([created('team', 300, 10000)]));

  it('creates a Free account with 60/min and 1,000/h', () =>
    spec
      .given([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Acme', plan: 'free', now })
      .then([created('free', 60, 1000)]));

  it('needs custom limits for Enterprise', () => {
    spec
      .given([])
      .when({
        type: 'CreateAccount',
        accountId: 'acct_1',
        name: 'Acme',
        plan: 'enterprise',
        perMinute: 5000,
        perHour: 200000,
        now,
      })
      .then([created('enterprise', 5000, 200000)]);
    spec
      .given([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Acme', plan: 'enterprise', now })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details.length === 2);
  });

  it('refuses custom limits on Free and Team, and an hour budget below the minute budget', () => {
    spec
      .given([])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Acme', plan: 'free', perMinute: 1000, now })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED');
    spec
      .given([])
      .when({
        type: 'CreateAccount',
        accountId: 'acct_1',
        name: 'Acme',
        plan: 'enterprise',
        perMinute: 100,
        perHour: 50,
        now,
      })
      .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'per_hour');
  });

  it('refuses to create an account twice', () =>
    spec
      .given([created('team', 300, 10000)])
      .when({ type: 'CreateAccount', accountId: 'acct_1', name: 'Acme', plan: 'team', now })
      .thenThrows((e) => e.kind === 'conflict' && e.code === 'ACCOUNT_EXISTS'));

  it('changes plan, and changing to the same plan records nothing', () => {
    spec
      .given([created('team', 300, 10000)])
      .when({ type: 'ChangePlan', accountId: 'acct_1', plan: 'free', now })
      .then([
        {
          type: 'AccountPlanChanged',
          data: {
            account_id: 'acct_1',
            plan: 'free',
            limits: { per_minute: 60, per_hour: 1000 },
            changed_at: now.toISOString(),
          },
        },
      ]);
    spec
      .given([created('team', 300, 10000)])
      .when({ type: 'ChangePlan', accountId: 'acct_1', plan: 'team', now })
      .then([]);
  });

  it('cannot change the plan of an absent account', () =>
    spec
      .given([])
      .when({ type: 'ChangePlan', accountId: 'acct_1', plan: 'free', now })
      .thenThrows((e) => e.kind === 'not_found'));
});
