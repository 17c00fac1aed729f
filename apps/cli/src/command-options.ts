import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The CLI's one parser: node:util's parseArgs, strict, positionals handed back for the command to
 * judge. Whatever it refuses (an unknown option, a missing value) is a UsageError (exit 2).
 */
export function parseOptions<const O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** `--name value` options only (all strings), no positionals. */
export function stringOptions(args: string[], names: readonly string[]): Record<string, string | undefined> {
  const { values, positionals } = parseOptions(args, Object.fromEntries(names.map((n) => [n, { type: 'string' }])));
  if (positionals.length) throw new UsageError(`unexpected argument ${positionals.join(' ')}`);
  return values as Record<string, string | undefined>;
}

/** A command that takes nothing after its name. */
export function noArguments(name: string, args: string[]): void {
  const { positionals } = parseOptions(args, {});
  if (positionals.length) throw new UsageError(`${name} takes no arguments, got ${positionals.join(' ')}`);
}

/**
 * The light half of a command-table entry (command-table.ts): the words that name the command,
 * its usage entry (a synopsis line at two spaces, then description lines further in) and its
 * parser. Light so that help and usage errors answer before anything heavy is loaded.
 */
export interface CommandArgs<C> {
  readonly name: string;
  readonly usage: string;
  parse(args: string[]): C;
}
