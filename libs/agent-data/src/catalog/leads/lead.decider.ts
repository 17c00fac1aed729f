import { assertNever, Errors, type Decider } from '#kernel';
import { OBJECTIVE_PACK } from '../objectives.js';
import type { PackId } from '../packs.js';
import { OPERATOR_PILOT_DAYS } from '../services.js';
import type { LeadEvent, LeadObjective } from './lead.events.js';

export type LeadCommand = {
  type: 'SubmitLead';
  leadId: string;
  contactEmail: string;
  company?: string;
  agentName?: string;
  useCase?: string;
  objective?: LeadObjective;
  packId?: PackId;
  expectedMonthlyCalls?: number;
  message?: string;
  sourceRef?: string;
  now: Date;
};

export type LeadState = { status: 'absent' } | { status: 'received'; leadId: string };

/**
 * An operator-pilot lead: submitted once (its id is new), with the pilot terms of the day
 * (objective, funding pack, 14 days) fixed in the event.
 */
export const leadDecider: Decider<LeadCommand, LeadEvent, LeadState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'OperatorPilotLeadSubmitted':
        return { status: 'received', leadId: event.data.lead_id };
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'SubmitLead': {
        if (state.status !== 'absent') throw Errors.conflict('The lead exists already.', 'CONCURRENT_MODIFICATION');
        const objective = command.objective ?? 'operator_pilot';
        return [
          {
            type: 'OperatorPilotLeadSubmitted',
            data: {
              lead_id: command.leadId,
              contact_email: command.contactEmail.trim().toLowerCase(),
              company: command.company ?? null,
              agent_name: command.agentName ?? null,
              use_case: command.useCase ?? null,
              objective,
              pack_id: command.packId ?? OBJECTIVE_PACK[objective],
              expected_monthly_calls: command.expectedMonthlyCalls ?? null,
              message: command.message ?? null,
              source_ref: command.sourceRef ?? null,
              pilot_days: OPERATOR_PILOT_DAYS,
              submitted_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};
