import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';

export const CREDITS_USAGE = `  credits grant --key KEY_ID --usd AMOUNT --reference TEXT
                                 grant prepaid credits to the account of an agent key (a
                                 commit paid outside the service): AMOUNT in USD, at most two
                                 decimals and 1000000; TEXT (1 to 200 characters) names the
                                 grant: the same reference again grants nothing. Prints
                                 {account_id, key_id, granted_usd, reference, balance_usd,
                                 granted} as one JSON line`;

export type CreditsCliCommand = { kind: 'credits-grant'; keyId: string; creditsCents: number; reference: string };

// The same limits as the ledger's (MAX_GRANT_CENTS, MAX_GRANT_REFERENCE_LENGTH in #agent-billing),
// checked here too so bad usage answers before any store is opened.
const MAX_GRANT_USD = 1_000_000;
const MAX_REFERENCE_LENGTH = 200;

function parse(args: string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options']) {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    if (positionals.length) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
    return values as Record<string, string | undefined>;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** USD with at most two decimals, to integer cents without floating-point rounding. */
function usdToCents(value: string | undefined): number {
  if (value === undefined) throw new UsageError('--usd AMOUNT is required, e.g. --usd 250');
  const m = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value);
  const cents = m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : NaN;
  if (!(cents > 0) || cents > MAX_GRANT_USD * 100)
    throw new UsageError(
      `--usd expects an amount in USD above 0 and at most ${MAX_GRANT_USD}, with at most two decimals, got ${JSON.stringify(value)}`,
    );
  return cents;
}

export function parseCreditsArgs(action: string | undefined, rest: string[]): CreditsCliCommand {
  if (action === 'grant') {
    const v = parse(rest, { key: { type: 'string' }, usd: { type: 'string' }, reference: { type: 'string' } });
    if (!v.key) throw new UsageError('--key KEY_ID is required (an agent key of the account to credit)');
    const creditsCents = usdToCents(v.usd);
    const reference = v.reference?.trim() ?? '';
    if (reference === '') throw new UsageError('--reference TEXT is required, e.g. --reference PO-1234');
    if (reference.length > MAX_REFERENCE_LENGTH)
      throw new UsageError(`--reference must be at most ${MAX_REFERENCE_LENGTH} characters, got ${reference.length}`);
    return { kind: 'credits-grant', keyId: v.key, creditsCents, reference };
  }
  throw new UsageError(
    action === undefined ? 'credits needs a subcommand: grant' : `unknown credits subcommand: ${action}`,
  );
}
