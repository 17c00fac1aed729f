import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const GRANT_USAGE = `  credits grant --key KEY_ID --usd AMOUNT --reference TEXT
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

export const creditsGrant: CommandArgs<CreditsCliCommand> = {
  name: 'credits grant',
  usage: GRANT_USAGE,
  parse(args) {
    const v = stringOptions(args, ['key', 'usd', 'reference']);
    if (!v.key) throw new UsageError('--key KEY_ID is required (an agent key of the account to credit)');
    const creditsCents = usdToCents(v.usd);
    const reference = v.reference?.trim() ?? '';
    if (reference === '') throw new UsageError('--reference TEXT is required, e.g. --reference PO-1234');
    if (reference.length > MAX_REFERENCE_LENGTH)
      throw new UsageError(`--reference must be at most ${MAX_REFERENCE_LENGTH} characters, got ${reference.length}`);
    return { kind: 'credits-grant', keyId: v.key, creditsCents, reference };
  },
};
