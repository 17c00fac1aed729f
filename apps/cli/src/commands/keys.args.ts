import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREATE_USAGE = `  keys create --account ACCOUNT_ID --scopes a,b --name NAME [--surface platform|agent]
                                 issue an API key (scopes: read, write, admin, agents:run,
                                 agents:configure, repositories:manage). Prints {id, key, ...}
                                 as one JSON line: the key value is shown only here`;

const REVOKE_USAGE = `  keys revoke --id KEY_ID        revoke a key (refused by a running server within a second)`;

export type KeysCliCommand =
  | { kind: 'keys-create'; accountId: string; scopes: string[]; name: string; surface: 'platform' | 'agent' }
  | { kind: 'keys-revoke'; keyId: string };

export const keysCreate: CommandArgs<Extract<KeysCliCommand, { kind: 'keys-create' }>> = {
  name: 'keys create',
  usage: CREATE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['account', 'scopes', 'name', 'surface']);
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
  },
};

export const keysRevoke: CommandArgs<Extract<KeysCliCommand, { kind: 'keys-revoke' }>> = {
  name: 'keys revoke',
  usage: REVOKE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['id']);
    if (!v.id) throw new UsageError('--id KEY_ID is required');
    return { kind: 'keys-revoke', keyId: v.id };
  },
};
