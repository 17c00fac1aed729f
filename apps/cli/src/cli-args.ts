import { COMMANDS, type CommandEntry } from './command-table.js';
import { suggestCommand } from './command-suggestion.js';
import { UsageError } from './usage-error.js';
import type { AccountsCliCommand } from './commands/accounts.args.js';
import type { AuditCliCommand } from './commands/audit.args.js';
import type { CompaniesCliCommand } from './commands/companies.args.js';
import type { CreditsCliCommand } from './commands/credits.args.js';
import type { EventsTailCliCommand } from './commands/events-tail.args.js';
import type { KeysCliCommand } from './commands/keys.args.js';
import type { LeadsCliCommand } from './commands/leads.args.js';
import type { OAuthClientsCliCommand } from './commands/oauth-clients.args.js';
import type { ProjectionsCliCommand } from './commands/projections.args.js';
import type { UsersCliCommand } from './commands/users.args.js';
import type { WorkspacesCliCommand } from './commands/workspaces.args.js';

const SYNOPSIS = 'Usage: svc <command> [options]    (npm run --silent svc -- <command> [options])';

export const USAGE = `${SYNOPSIS}

Commands:
${COMMANDS.map((c) => c.usage).join('\n')}
  help                           this text

Configuration comes from the same environment variables as the server (SVC_DATA_DIR,
EVENTSTORE_URL, MONGODB_URL, ...). The CLI can run while the server uses the same data.
A command refuses (exit 1) a SVC_DATA_DIR without a store unless given --create: the api
creates the store on its first start.
Exit codes: 0 done, 1 error, 2 bad usage.`;

export { UsageError };

export type CliCommand =
  | { kind: 'help' }
  | ProjectionsCliCommand
  | { kind: 'secrets-reseal' }
  | EventsTailCliCommand
  | AccountsCliCommand
  | KeysCliCommand
  | UsersCliCommand
  | OAuthClientsCliCommand
  | CreditsCliCommand
  | WorkspacesCliCommand
  | LeadsCliCommand
  | CompaniesCliCommand
  | AuditCliCommand;

const entries = COMMANDS.map((c) => ({ command: c.name, text: c.usage }));
const words = (entry: CommandEntry) => entry.name.split(' ');

/**
 * Finds the command the arguments name in the table (the longest name their first words match)
 * and parses the rest with its parser; `help` when there is nothing (or --help, -h). Throws a
 * UsageError (exit 2) naming the nearest command when the words match none.
 */
export function resolveCliArgs(
  argv: string[],
): { entry: CommandEntry; command: CliCommand } | { command: { kind: 'help' } } {
  const [first] = argv;
  if (first === undefined || first === 'help' || first === '--help' || first === '-h')
    return { command: { kind: 'help' } };
  const entry = COMMANDS.filter((c) => words(c).every((w, i) => argv[i] === w)).sort(
    (a, b) => words(b).length - words(a).length,
  )[0];
  if (entry) return { entry, command: entry.parse(argv.slice(words(entry).length)) as CliCommand };
  const group = COMMANDS.filter((c) => words(c)[0] === first);
  if (group.length > 0) {
    const actions = group.map((c) => words(c).slice(1).join(' '));
    const longest = Math.max(...actions.map((a) => a.split(' ').length));
    throw new UsageError(
      argv[1] === undefined
        ? `${first} needs a subcommand: ${actions.join(', ')}`
        : `unknown ${first} subcommand: ${argv.slice(1, 1 + longest).join(' ')}`,
      usageText(group.map((c) => c.usage).join('\n')),
    );
  }
  const suggestion = suggestCommand(entries, argv);
  if (suggestion === undefined) throw new UsageError(`unknown command: ${first}`);
  throw new UsageError(
    `unknown command: ${first}; did you mean ${suggestion.commands.map((c) => `svc ${c}`).join(' or ')}?`,
    usageText(suggestion.usage),
  );
}

/** Parses `svc` arguments; throws UsageError (exit code 2) on anything it does not understand. */
export function parseCliArgs(argv: string[]): CliCommand {
  return resolveCliArgs(argv).command;
}

/** The usage to print with a usage error: the commands of the group the user typed, or all. */
export function usageFor(error: UsageError, argv: readonly string[]): string {
  if (error.usage !== undefined) return error.usage;
  const known = suggestCommand(entries, argv);
  return known ? usageText(known.usage) : USAGE;
}

function usageText(text: string): string {
  return `${SYNOPSIS}\n\n${text}\n\nAll commands: svc help`;
}
