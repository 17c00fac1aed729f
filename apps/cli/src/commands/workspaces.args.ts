import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';

const CREATE_USAGE = `  workspaces create --name N [--account acct_…]
                                 an enterprise tenant with its own credits account (or on an
                                 existing agent account: its credits follow and its keys become
                                 tenant-bound) and a tenant-bound service-account key (agent
                                 surface); prints {tenant_id, name, account_id, key: {id, api_key}}`;

const KEYS_CREATE_USAGE = `  workspaces keys create --tenant ID --name N
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

export const workspacesCreate: CommandArgs<Extract<WorkspacesCliCommand, { kind: 'workspaces-create' }>> = {
  name: 'workspaces create',
  usage: CREATE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['name', 'account']);
    const accountId = accountOption(v.account);
    return { kind: 'workspaces-create', name: name(v.name), ...(accountId ? { accountId } : {}) };
  },
};

export const workspacesKeysCreate: CommandArgs<Extract<WorkspacesCliCommand, { kind: 'workspaces-keys-create' }>> = {
  name: 'workspaces keys create',
  usage: KEYS_CREATE_USAGE,
  parse(args) {
    const v = stringOptions(args, ['tenant', 'name']);
    if (!v.tenant || !/^tn_[0-9A-HJKMNP-TV-Z]{26}$/.test(v.tenant))
      throw new UsageError('--tenant ID is required (a tenant id, tn_…)');
    return { kind: 'workspaces-keys-create', tenantId: v.tenant, name: name(v.name) };
  },
};
