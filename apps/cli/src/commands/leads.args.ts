import { type CommandArgs, stringOptions } from '../command-options.js';
import { UsageError } from '../usage-error.js';
import { accountOption } from './workspaces.args.js';

const LIST_USAGE = `  leads list [--status received|converted]
                                 the leads of POST /api/v1/agents/leads, oldest first, one JSON
                                 line each (the read model as the server or worker last wrote it)`;

const CONVERT_USAGE = `  leads convert --lead ID [--account acct_…]
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

export const leadsList: CommandArgs<Extract<LeadsCliCommand, { kind: 'leads-list' }>> = {
  name: 'leads list',
  usage: LIST_USAGE,
  parse(args) {
    const { status } = stringOptions(args, ['status']);
    if (status !== undefined && status !== 'received' && status !== 'converted')
      throw new UsageError('--status must be received or converted');
    return { kind: 'leads-list', ...(status ? { status } : {}) };
  },
};

export const leadsConvert: CommandArgs<Extract<LeadsCliCommand, { kind: 'leads-convert' }>> = {
  name: 'leads convert',
  usage: CONVERT_USAGE,
  parse(args) {
    const v = stringOptions(args, ['lead', 'account']);
    if (!v.lead || !LEAD_ID.test(v.lead)) throw new UsageError('--lead ID is required (a lead id, lead_…)');
    const accountId = accountOption(v.account);
    return { kind: 'leads-convert', leadId: v.lead, ...(accountId ? { accountId } : {}) };
  },
};
