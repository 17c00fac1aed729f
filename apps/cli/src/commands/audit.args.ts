import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREDITS_USAGE = `  audit credits [--account ID] [--as-of ISO_TIME]
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
                                 revision was recorded by then. Progress on stderr (position in
                                 $all of its head). Exit 1 when a line is not ok`;

const DELIVERIES_USAGE = `  audit deliveries [--webhook ID]
                                 replay the webhook engine's events (every channel) and print
                                 one JSON line per webhook: {webhook_id, channel, owner_id,
                                 status, deliveries: {succeeded, failed, pending, held,
                                 cancelled}, attempts: {automatic, manual}, breaks, ok}. A break
                                 is an automatic attempt started over 1 s before it was due
                                 (early), a sixth one (too_many), one while the webhook was
                                 disabled (while_disabled) or one after the delivery had ended
                                 (not_due); manual redeliveries are outside the schedule.
                                 Progress on stderr (position in $all of its head). Exit 1 on
                                 any break`;

export type AuditCliCommand =
  { kind: 'audit-credits'; accountId?: string; asOf?: Date } | { kind: 'audit-deliveries'; webhookId?: string };

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

export const auditCredits: CommandArgs<Extract<AuditCliCommand, { kind: 'audit-credits' }>> = {
  name: 'audit credits',
  usage: CREDITS_USAGE,
  parse(args) {
    const v = stringOptions(args, ['account', 'as-of']);
    const accountId = id('--account', v.account);
    const asOf = instant(v['as-of']);
    return { kind: 'audit-credits', ...(accountId ? { accountId } : {}), ...(asOf ? { asOf } : {}) };
  },
};

export const auditDeliveries: CommandArgs<Extract<AuditCliCommand, { kind: 'audit-deliveries' }>> = {
  name: 'audit deliveries',
  usage: DELIVERIES_USAGE,
  parse(args) {
    const webhookId = id('--webhook', stringOptions(args, ['webhook']).webhook);
    return { kind: 'audit-deliveries', ...(webhookId ? { webhookId } : {}) };
  },
};
