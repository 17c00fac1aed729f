import type { SubmitLeadBody } from './submit-lead.schema.js';

export interface SubmittedLead {
  lead_id: string;
  objective: 'operator_pilot' | 'enterprise';
  pack_id: string;
  pilot_days: number;
  received_at: string;
  position: number;
}

export class SubmitLeadCommand {
  constructor(
    readonly body: SubmitLeadBody,
    /** Stored as event metadata (request id). */
    readonly requestId?: string,
    /** The agent key the lead was sent with: a conversion puts the tenant on its account. */
    readonly caller?: { accountId: string; keyId: string },
  ) {}
}
