import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';

/** `--name value` options only (all strings), no positionals; anything else is a UsageError (exit 2). */
export function stringOptions(args: string[], names: string[]): Record<string, string | undefined> {
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
