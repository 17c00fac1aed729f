import { parseArgs } from 'node:util';
import { ACCOUNTS_USAGE, type AccountsCliCommand, parseAccountsArgs } from './commands/accounts.args.js';
import { KEYS_USAGE, type KeysCliCommand, parseKeysArgs } from './commands/keys.args.js';
import { COMPANIES_USAGE, type CompaniesCliCommand, parseCompaniesArgs } from './commands/companies.args.js';
import { CREDITS_USAGE, type CreditsCliCommand, parseCreditsArgs } from './commands/credits.args.js';
import { parseWorkspacesArgs, WORKSPACES_USAGE, type WorkspacesCliCommand } from './commands/workspaces.args.js';
import { LEADS_USAGE, type LeadsCliCommand, parseLeadsArgs } from './commands/leads.args.js';
import { AUDIT_USAGE, type AuditCliCommand, parseAuditArgs } from './commands/audit.args.js';
import { parseUsersArgs, USERS_USAGE, type UsersCliCommand } from './commands/users.args.js';
import {
  OAUTH_CLIENTS_USAGE,
  type OAuthClientsCliCommand,
  parseOAuthClientsArgs,
} from './commands/oauth-clients.args.js';
import { UsageError } from './usage-error.js';
import { suggestCommand } from './command-suggestion.js';

export const USAGE = `Usage: svc <command> [options]    (npm run svc -- <command> [options])

Commands:
  projections status             one JSON line per projection: checkpoint, state, lag
  projections rebuild [NAME]     replay from position 0 into fresh collections, then switch
                                 (every projection, or only NAME)
  events tail [options]          print events as JSON lines:
                                 {position, stream, revision, type, id, created, data}
      --stream S                 only events of stream S
      --stream-prefix P          only streams starting with P (repeatable)
      --type-prefix P            only event types starting with P (repeatable)
      --from POSITION            start at this global position (inclusive); without it,
                                 the last --limit events (default 10)
      --limit N                  print at most N events (with --from: no limit by default)
      --follow                   keep printing new events until interrupted
${ACCOUNTS_USAGE}
${KEYS_USAGE}
${USERS_USAGE}
${OAUTH_CLIENTS_USAGE}
${CREDITS_USAGE}
${WORKSPACES_USAGE}
${LEADS_USAGE}
${COMPANIES_USAGE}
${AUDIT_USAGE}
  secrets reseal                 seal every stored webhook secret with the current key
                                 (SVC_SECRETS_KEY or SVC_DATA_DIR/secrets.key): plaintext ones
                                 from before sealing, and ones sealed with an older key
                                 (SVC_SECRETS_OLD_KEYS); prints {resealed, current, failed}
  help                           this text

Configuration comes from the same environment variables as the server (SVC_DATA_DIR,
EVENTSTORE_URL, MONGODB_URL, ...). The CLI can run while the server uses the same data.
A command refuses (exit 1) a SVC_DATA_DIR without a store unless given --create: the api
creates the store on its first start.
Exit codes: 0 done, 1 error, 2 bad usage.`;

export { UsageError };

export type CliCommand =
  | { kind: 'help' }
  | { kind: 'projections-status' }
  | { kind: 'projections-rebuild'; name?: string }
  | { kind: 'secrets-reseal' }
  | {
      kind: 'events-tail';
      stream?: string;
      streamPrefixes: string[];
      typePrefixes: string[];
      from?: number;
      limit?: number;
      follow: boolean;
    }
  | AccountsCliCommand
  | KeysCliCommand
  | UsersCliCommand
  | OAuthClientsCliCommand
  | CreditsCliCommand
  | WorkspacesCliCommand
  | LeadsCliCommand
  | CompaniesCliCommand
  | AuditCliCommand;

function nonNegativeInt(flag: string, value: string | undefined, min: number): number {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} expects an integer >= ${min}, got ${JSON.stringify(value ?? '')}`);
  }
  return Number(value);
}

/** Parses `svc` arguments; throws UsageError (exit code 2) on anything it does not understand. */
export function parseCliArgs(argv: string[]): CliCommand {
  const [group, action, ...rest] = argv;
  if (group === undefined || group === 'help' || group === '--help' || group === '-h') return { kind: 'help' };
  const parse = (args: string[], options: NonNullable<Parameters<typeof parseArgs>[0]>['options']) => {
    try {
      return parseArgs({ args, options, allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  };
  if (group === 'projections') {
    if (action === 'status') {
      const { positionals } = parse(rest, {});
      if (positionals.length)
        throw new UsageError(`projections status takes no arguments, got ${positionals.join(' ')}`);
      return { kind: 'projections-status' };
    }
    if (action === 'rebuild') {
      const { positionals } = parse(rest, {});
      if (positionals.length > 1) throw new UsageError('projections rebuild takes at most one projection name');
      return positionals[0] === undefined
        ? { kind: 'projections-rebuild' }
        : { kind: 'projections-rebuild', name: positionals[0] };
    }
    throw new UsageError(
      action === undefined
        ? 'projections needs a subcommand: status or rebuild'
        : `unknown projections subcommand: ${action}`,
    );
  }
  if (group === 'events') {
    if (action !== 'tail')
      throw new UsageError(
        action === undefined ? 'events needs a subcommand: tail' : `unknown events subcommand: ${action}`,
      );
    const { values, positionals } = parse(rest, {
      stream: { type: 'string' },
      'stream-prefix': { type: 'string', multiple: true },
      'type-prefix': { type: 'string', multiple: true },
      from: { type: 'string' },
      limit: { type: 'string' },
      follow: { type: 'boolean', short: 'f' },
    });
    if (positionals.length)
      throw new UsageError(`events tail takes no positional arguments, got ${positionals.join(' ')}`);
    const v = values as Record<string, string | string[] | boolean | undefined>;
    const stream = v.stream as string | undefined;
    if (stream === '') throw new UsageError('--stream expects a stream name');
    return {
      kind: 'events-tail',
      ...(stream !== undefined ? { stream } : {}),
      streamPrefixes: (v['stream-prefix'] as string[] | undefined) ?? [],
      typePrefixes: (v['type-prefix'] as string[] | undefined) ?? [],
      ...(v.from !== undefined ? { from: nonNegativeInt('--from', v.from as string, 1) } : {}),
      ...(v.limit !== undefined ? { limit: nonNegativeInt('--limit', v.limit as string, 1) } : {}),
      follow: v.follow === true,
    };
  }
  if (group === 'secrets') {
    if (action !== 'reseal')
      throw new UsageError(
        action === undefined ? 'secrets needs a subcommand: reseal' : `unknown secrets subcommand: ${action}`,
      );
    const { positionals } = parse(rest, {});
    if (positionals.length) throw new UsageError(`secrets reseal takes no arguments, got ${positionals.join(' ')}`);
    return { kind: 'secrets-reseal' };
  }
  if (group === 'accounts') return parseAccountsArgs(action, rest);
  if (group === 'keys') return parseKeysArgs(action, rest);
  if (group === 'users') return parseUsersArgs(action, rest);
  if (group === 'oauth-clients') return parseOAuthClientsArgs(action, rest);
  if (group === 'credits') return parseCreditsArgs(action, rest);
  if (group === 'workspaces') return parseWorkspacesArgs(action, rest);
  if (group === 'leads') return parseLeadsArgs(action, rest);
  if (group === 'companies') return parseCompaniesArgs(action, rest);
  if (group === 'audit') return parseAuditArgs(action, rest);
  const suggestion = suggestCommand(USAGE, argv);
  if (suggestion === undefined) throw new UsageError(`unknown command: ${group}`);
  throw new UsageError(
    `unknown command: ${group}; did you mean ${suggestion.commands.map((c) => `svc ${c}`).join(' or ')}?`,
    usageText(suggestion.usage),
  );
}

/** The usage to print with a usage error: the commands of the group the user typed, or all. */
export function usageFor(error: UsageError, argv: readonly string[]): string {
  if (error.usage !== undefined) return error.usage;
  const known = suggestCommand(USAGE, argv);
  return known ? usageText(known.usage) : USAGE;
}

function usageText(entries: string): string {
  return `${USAGE.split('\n')[0]}\n\n${entries}\n\nAll commands: svc help`;
}
