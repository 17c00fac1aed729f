import type { PackId } from '#agent-contract';

export type LeadObjective = 'operator_pilot' | 'enterprise';

/** Stored event types of `lead-{id}` streams. Names are stable: never rename. */
export type LeadEvent =
  | {
      type: 'OperatorPilotLeadSubmitted';
      data: {
        lead_id: string;
        contact_email: string;
        company: string | null;
        agent_name: string | null;
        use_case: string | null;
        objective: LeadObjective;
        pack_id: PackId;
        expected_monthly_calls: number | null;
        message: string | null;
        source_ref: string | null;
        pilot_days: number;
        /** The account and key of an agent that sent its key with the lead: a conversion puts the tenant there. */
        account_id?: string;
        key_id?: string;
        submitted_at: string;
      };
    }
  | {
      /**
       * An operator converted the lead (`svc leads convert`): the tenant and the account that holds
       * it. Recorded before a new account is opened, so a conversion that stopped half-way is
       * finished by running it again, on the same ids.
       */
      type: 'LeadConverted';
      data: {
        lead_id: string;
        tenant_id: string;
        account_id: string;
        /** True when the conversion opened the account (the lead came without a key and none was named). */
        new_account: boolean;
        /** What the tenant got: the operator pilot or enterprise access. */
        plan: 'pilot' | 'enterprise';
        converted_by: 'operator';
        converted_at: string;
      };
    };

export const LEAD_EVENT_TYPES: LeadEvent['type'][] = ['OperatorPilotLeadSubmitted', 'LeadConverted'];

export const leadStream = (leadId: string) => `lead-${leadId}`;
