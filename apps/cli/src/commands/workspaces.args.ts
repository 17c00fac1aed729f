import { UsageError } from '../usage-error.js';
import { stringOptions } from './string-options.js';

export const WORKSPACES_USAGE = `  workspaces create --name N [--account acct_…]
                                 an enterprise tenant with its own credits account (or on an
                                 existing agent account: its credits follow and its keys become
                                 tenant-bound) and a tenant-bound service-account key (agent
                                 surface); prints {tenant_id, name, account_id, key: {id, api_key}}
  workspaces keys create --tenant ID --name N
                                 another key of the tenant; prints {tenant_id, account_id, id,
                                 api_key, name, created_at} (rotate with /api/v1/agents/keys)`;

export type WorkspacesCliCommand =
  | { kind: 'workspaces-create'; name: string; accountId?: string }
  | { kind: 'workspaces-keys-create'; tenantId: string; name: string };

const ACCOUNT_ID = /^acct_[0-9A-HJKMNP-TV-Z]{26}$/;

/** `--account acct_…`, checked before a store is opened. */
export function accountOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!ACCOUNT_ID.test(value)) throw new UsageError('--account must be an agent account id (acct_…)');
  return value;
}

function name(value: string | undefined): string {
  const trimmed = value?.trim() ?? '';
  if (trimmed === '' || trimmed.length > 100) throw new UsageError('--name N is required (1 to 100 characters)');
  return trimmed;
}

export function parseWorkspacesArgs(action: string | undefined, rest: string[]): WorkspacesCliCommand {
  if (action === 'create') {
    const v = stringOptions(rest, ['name', 'account']);
    const accountId = accountOption(v.account);
    return { kind: 'workspaces-create', name: name(v.name), ...(accountId ? { accountId } : {}) };
  }
  if (action === 'keys' && rest[0] === 'create') {
    const v = stringOptions(rest.slice(1), ['tenant', 'name']);
    if (!v.tenant || !/^tn_[0-9A-HJKMNP-TV-Z]{26}$/.test(v.tenant))
      throw new UsageError('--tenant ID is required (a tenant id, tn_…)');
    return { kind: 'workspaces-keys-create', tenantId: v.tenant, name: name(v.name) };
  }
  throw new UsageError(
    action === undefined
      ? 'workspaces needs a subcommand: create, keys create'
      : `unknown workspaces subcommand: ${[action, ...rest.slice(0, 1)].join(' ')}`,
  );
}
