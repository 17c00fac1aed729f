import { UsageError } from '../usage-error.js';
import { stringOptions } from './string-options.js';
import { accountOption } from './workspaces.args.js';

export const LEADS_USAGE = `  leads list [--status received|converted]
                                 the leads of POST /api/v1/agents/leads, oldest first, one JSON
                                 line each (the read model as the server or worker last wrote it)
  leads convert --lead ID [--account acct_…]
                                 the lead becomes a tenant: on --account, else on the account of
                                 the key the lead was sent with (its credits follow), else on a
                                 new account with a first key; an operator_pilot lead starts the
                                 14-day pilot, an enterprise lead gets enterprise access. Running
                                 it again changes nothing. Prints {lead_id, tenant_id, account_id,
                                 plan, pilot_ends_at, key, converted}`;

export type LeadsCliCommand =
  | { kind: 'leads-list'; status?: 'received' | 'converted' }
  | { kind: 'leads-convert'; leadId: string; accountId?: string };

const LEAD_ID = /^lead_[0-9A-HJKMNP-TV-Z]{26}$/;

export function parseLeadsArgs(action: string | undefined, rest: string[]): LeadsCliCommand {
  if (action === 'list') {
    const { status } = stringOptions(rest, ['status']);
    if (status !== undefined && status !== 'received' && status !== 'converted')
      throw new UsageError('--status must be received or converted');
    return { kind: 'leads-list', ...(status ? { status } : {}) };
  }
  if (action === 'convert') {
    const v = stringOptions(rest, ['lead', 'account']);
    if (!v.lead || !LEAD_ID.test(v.lead)) throw new UsageError('--lead ID is required (a lead id, lead_…)');
    const accountId = accountOption(v.account);
    return { kind: 'leads-convert', leadId: v.lead, ...(accountId ? { accountId } : {}) };
  }
  throw new UsageError(
    action === undefined ? 'leads needs a subcommand: list, convert' : `unknown leads subcommand: ${action}`,
  );
}
