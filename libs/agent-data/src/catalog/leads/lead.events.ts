import type { PackId } from '../packs.js';

export type LeadObjective = 'operator_pilot' | 'enterprise';

/** Stored event types of `lead-{id}` streams. Names are stable: never rename. */
export type LeadEvent = {
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
    submitted_at: string;
  };
};

export const LEAD_EVENT_TYPES: LeadEvent['type'][] = ['OperatorPilotLeadSubmitted'];

export const leadStream = (leadId: string) => `lead-${leadId}`;
