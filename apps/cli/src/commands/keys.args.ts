import { parseArgs } from 'node:util';
import { UsageError } from '../usage-error.js';

export const KEYS_USAGE = `  keys create --account ACCOUNT_ID --scopes a,b --name NAME [--surface platform|agent]
                                 issue an API key (scopes: read, write, admin, agents:run,
                                 agents:configure, repositories:manage). Prints {id, key, ...}
                                 as one JSON line: the key value is shown only here
  keys revoke --id KEY_ID        revoke a key (refused by a running server within a second)`;

export type KeysCliCommand =
  | { kind: 'keys-create'; accountId: string; scopes: string[]; name: string; surface: 'platform' | 'agent' }
  | { kind: 'keys-revoke'; keyId: string };

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

export function parseKeysArgs(action: string | undefined, rest: string[]): KeysCliCommand {
  if (action === 'create') {
    const v = parse(rest, {
      account: { type: 'string' },
      scopes: { type: 'string' },
      name: { type: 'string' },
      surface: { type: 'string' },
    });
    if (!v.account) throw new UsageError('--account ACCOUNT_ID is required');
    if (!v.scopes) throw new UsageError('--scopes is required, e.g. --scopes read,write');
    if (!v.name || v.name.trim() === '') throw new UsageError('--name NAME is required');
    const scopes = v.scopes.split(',').map((s) => s.trim());
    if (scopes.some((s) => s === ''))
      throw new UsageError(`--scopes expects names separated by commas, got ${JSON.stringify(v.scopes)}`);
    const surface = v.surface ?? 'platform';
    if (surface !== 'platform' && surface !== 'agent')
      throw new UsageError(`--surface must be platform or agent, got ${JSON.stringify(surface)}`);
    return { kind: 'keys-create', accountId: v.account, scopes, name: v.name, surface };
  }
  if (action === 'revoke') {
    const v = parse(rest, { id: { type: 'string' } });
    if (!v.id) throw new UsageError('--id KEY_ID is required');
    return { kind: 'keys-revoke', keyId: v.id };
  }
  throw new UsageError(
    action === undefined ? 'keys needs a subcommand: create or revoke' : `unknown keys subcommand: ${action}`,
  );
}
