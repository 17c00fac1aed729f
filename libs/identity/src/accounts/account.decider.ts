import { assertNever, Errors, type Decider } from '#kernel';
import { PLAN_LIMITS, PLANS, type AccountEvent, type Plan, type RateLimits } from './account.events.js';

export type AccountCommand =
  | {
      type: 'CreateAccount';
      accountId: string;
      name: string;
      plan: Plan;
      perMinute?: number;
      perHour?: number;
      now: Date;
    }
  | { type: 'ChangePlan'; accountId: string; plan: Plan; perMinute?: number; perHour?: number; now: Date };

export type AccountState =
  { status: 'absent' } | { status: 'active'; accountId: string; plan: Plan; limits: RateLimits };

const MAX_LIMIT = 10_000_000;

/** Free and Team have the spec's fixed limits; Enterprise needs both custom limits. */
function limitsFor(plan: Plan, perMinute?: number, perHour?: number): RateLimits {
  if (!PLANS.includes(plan)) throw Errors.validation([{ path: 'plan', message: `must be one of ${PLANS.join(', ')}` }]);
  if (plan !== 'enterprise') {
    if (perMinute !== undefined || perHour !== undefined) {
      throw Errors.validation([{ path: 'plan', message: `custom limits apply to the enterprise plan only` }]);
    }
    return PLAN_LIMITS[plan];
  }
  const details = [];
  for (const [path, v] of [
    ['per_minute', perMinute],
    ['per_hour', perHour],
  ] as const) {
    if (v === undefined || !Number.isInteger(v) || v < 1 || v > MAX_LIMIT) {
      details.push({ path, message: `enterprise plans need an integer from 1 to ${MAX_LIMIT}` });
    }
  }
  if (details.length) throw Errors.validation(details);
  if (perHour! < perMinute!) throw Errors.validation([{ path: 'per_hour', message: 'must be at least per_minute' }]);
  return { per_minute: perMinute!, per_hour: perHour! };
}

export const accountDecider: Decider<AccountCommand, AccountEvent, AccountState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'AccountCreated':
        return { status: 'active', accountId: event.data.account_id, plan: event.data.plan, limits: event.data.limits };
      case 'AccountPlanChanged':
        return state.status === 'active' ? { ...state, plan: event.data.plan, limits: event.data.limits } : state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CreateAccount': {
        if (state.status !== 'absent') throw Errors.conflict('The account exists already.', 'ACCOUNT_EXISTS');
        const name = command.name.trim();
        if (name.length < 1 || name.length > 100)
          throw Errors.validation([{ path: 'name', message: 'must be 1 to 100 characters' }]);
        const limits = limitsFor(command.plan, command.perMinute, command.perHour);
        return [
          {
            type: 'AccountCreated',
            data: {
              account_id: command.accountId,
              name,
              plan: command.plan,
              limits,
              created_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ChangePlan': {
        if (state.status !== 'active') throw Errors.notFound('No such account.', 'ACCOUNT_NOT_FOUND');
        const limits = limitsFor(command.plan, command.perMinute, command.perHour);
        if (
          state.plan === command.plan &&
          state.limits.per_minute === limits.per_minute &&
          state.limits.per_hour === limits.per_hour
        ) {
          return [];
        }
        return [
          {
            type: 'AccountPlanChanged',
            data: { account_id: command.accountId, plan: command.plan, limits, changed_at: command.now.toISOString() },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
