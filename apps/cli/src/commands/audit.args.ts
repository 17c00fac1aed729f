import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';

export const AUDIT_USAGE = `  audit credits [--account ID] [--as-of ISO_TIME]
                                 replay every account's credits ledger (the credits-* streams,
                                 found in $all) and print one JSON line per account: {account_id,
                                 balance_usd, purchased_usd, granted_usd, charged_usd,
                                 refunded_usd, charges, revision, as_of,
                                 read_model_balance_usd, ok, mismatches}. The read model is every
                                 other copy of the balance: the ledger snapshot document (it must
                                 equal the replay at its revision) and what the service answers
                                 now (the snapshot plus later events: read_model_balance_usd);
                                 ok is false when either disagrees. --as-of: the figures at that
                                 instant (events the store recorded at or before it; accounts
                                 with none print nothing); the service is not compared then
                                 (read_model_balance_usd null), a snapshot only when its
                                 revision was recorded by then. Exit 1 when a line is not ok
  audit deliveries [--webhook ID]
                                 replay the webhook engine's events (every channel) and print
                                 one JSON line per webhook: {webhook_id, channel, owner_id,
                                 status, deliveries: {succeeded, failed, pending, held,
                                 cancelled}, attempts: {automatic, manual}, breaks, ok}. A break
                                 is an automatic attempt started over 1 s before it was due
                                 (early), a sixth one (too_many), one while the webhook was
                                 disabled (while_disabled) or one after the delivery had ended
                                 (not_due); manual redeliveries are outside the schedule. Exit 1
                                 on any break`;

export type AuditCliCommand =
  { kind: 'audit-credits'; accountId?: string; asOf?: Date } | { kind: 'audit-deliveries'; webhookId?: string };

function parse(args: string[], names: string[]): Record<string, string | undefined> {
  try {
    const options = Object.fromEntries(names.map((n) => [n, { type: 'string' as const }]));
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
    return values as Record<string, string | undefined>;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function id(flag: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${flag} expects an id`);
  return value;
}

// A date, or a date and time with its offset: a time without one would be read in local time.
const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function instant(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const ms = ISO_TIME.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms))
    throw new UsageError(
      `--as-of expects an ISO 8601 time with its offset (2026-03-01T12:00:00Z) or a date (UTC midnight), got ${JSON.stringify(value)}`,
    );
  return new Date(ms);
}

export function parseAuditArgs(action: string | undefined, rest: string[]): AuditCliCommand {
  if (action === 'credits') {
    const v = parse(rest, ['account', 'as-of']);
    const accountId = id('--account', v.account);
    const asOf = instant(v['as-of']);
    return { kind: 'audit-credits', ...(accountId ? { accountId } : {}), ...(asOf ? { asOf } : {}) };
  }
  if (action === 'deliveries') {
    const webhookId = id('--webhook', parse(rest, ['webhook']).webhook);
    return { kind: 'audit-deliveries', ...(webhookId ? { webhookId } : {}) };
  }
  throw new UsageError(
    action === undefined ? 'audit needs a subcommand: credits or deliveries' : `unknown audit subcommand: ${action}`,
  );
}
