import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREATE_USAGE = `  accounts create --plan free|team|enterprise [--name NAME] [--per-minute N --per-hour N]
                                 create a platform account; enterprise needs both limits.
                                 Prints {account_id, name, plan, limits} as one JSON line`;
const PLAN_USAGE = `  accounts plan --id ACCOUNT_ID --plan free|team|enterprise [--per-minute N --per-hour N]
                                 move an account to another plan (limits apply at once)`;

const PLAN_NAMES = ['free', 'team', 'enterprise'] as const;
type PlanName = (typeof PLAN_NAMES)[number];

export type AccountsCliCommand =
  | { kind: 'accounts-create'; plan: PlanName; name: string; perMinute?: number; perHour?: number }
  | { kind: 'accounts-plan'; accountId: string; plan: PlanName; perMinute?: number; perHour?: number };

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} expects a positive integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

function plan(value: string | undefined): PlanName {
  if (value === undefined) throw new UsageError('--plan is required: free, team or enterprise');
  if (!(PLAN_NAMES as readonly string[]).includes(value))
    throw new UsageError(`--plan must be free, team or enterprise, got ${JSON.stringify(value)}`);
  return value as PlanName;
}

function limits(
  p: PlanName,
  values: { 'per-minute'?: string; 'per-hour'?: string },
): { perMinute?: number; perHour?: number } {
  const perMinute = positiveInt('--per-minute', values['per-minute']);
  const perHour = positiveInt('--per-hour', values['per-hour']);
  if (p === 'enterprise' && (perMinute === undefined || perHour === undefined)) {
    throw new UsageError('the enterprise plan needs --per-minute N and --per-hour N');
  }
  if (p !== 'enterprise' && (perMinute !== undefined || perHour !== undefined)) {
    throw new UsageError(`--per-minute and --per-hour apply to the enterprise plan only (${p} has fixed limits)`);
  }
  return { ...(perMinute !== undefined ? { perMinute } : {}), ...(perHour !== undefined ? { perHour } : {}) };
}

export const accountsCreate: CommandArgs<Extract<AccountsCliCommand, { kind: 'accounts-create' }>> = {
  name: 'accounts create',
  usage: CREATE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['plan', 'name', 'per-minute', 'per-hour']);
    const p = plan(v.plan);
    const name = v.name ?? `${p[0]!.toUpperCase()}${p.slice(1)} account`;
    if (name.trim() === '' || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
    return { kind: 'accounts-create', plan: p, name, ...limits(p, v) };
  },
};

export const accountsPlan: CommandArgs<Extract<AccountsCliCommand, { kind: 'accounts-plan' }>> = {
  name: 'accounts plan',
  usage: PLAN_USAGE,
  parse(args) {
    const v = stringOptions(args, ['id', 'plan', 'per-minute', 'per-hour']);
    if (!v.id) throw new UsageError('--id ACCOUNT_ID is required');
    const p = plan(v.plan);
    return { kind: 'accounts-plan', accountId: v.id, plan: p, ...limits(p, v) };
  },
};
