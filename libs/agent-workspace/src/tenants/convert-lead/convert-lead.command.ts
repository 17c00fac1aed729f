import { Command } from '@nestjs/cqrs';

export interface ConvertedLead {
  lead_id: string;
  tenant_id: string;
  account_id: string;
  plan: 'enterprise' | 'pilot' | 'pilot_ended';
  pilot_ends_at: string | null;
  /** A first key, when the conversion opened the account (shown once); null when the account had keys. */
  key: { id: string; api_key: string } | null;
  /** False when the lead had been converted already (this run finished or repeated it). */
  converted: boolean;
}

/**
 * `svc leads convert --lead ID [--account acct_…]`: the lead becomes a tenant, on the named
 * account, else on the account of the key the lead was sent with (its credits follow), else on a
 * new account with a first key. An operator_pilot lead starts the pilot; an enterprise lead gets
 * enterprise access.
 */
export class ConvertLeadCommand extends Command<ConvertedLead> {
  constructor(
    readonly leadId: string,
    readonly accountId?: string,
  ) {
    super();
  }
}
