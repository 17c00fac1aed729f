export const PLANS = ['free', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

import type { RateLimits } from '#access';

export type { RateLimits };

/** The spec's plan table (Limits, item 1); enterprise limits are set per account. */
export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, RateLimits> = {
  free: { per_minute: 60, per_hour: 1000 },
  team: { per_minute: 300, per_hour: 10000 },
};

/** Stored event types of `account-{id}` streams. Names are stable: never rename. */
export type AccountEvent =
  | {
      type: 'AccountCreated';
      data: { account_id: string; name: string; plan: Plan; limits: RateLimits; created_at: string };
    }
  | {
      type: 'AccountPlanChanged';
      data: { account_id: string; plan: Plan; limits: RateLimits; changed_at: string };
    };

export const ACCOUNT_EVENT_TYPES: AccountEvent['type'][] = ['AccountCreated', 'AccountPlanChanged'];

export const accountStream = (accountId: string) => `account-${accountId}`;
