import { assertNever, Errors, type Decider } from '#kernel';
import { OBJECTIVE_PACK, OPERATOR_PILOT_DAYS, type PackId } from '#agent-contract/vocabulary';
import type { LeadEvent, LeadObjective } from './lead.events.js';

export type LeadCommand =
  | {
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
      /** The agent key the lead was sent with, if any. */
      caller?: { accountId: string; keyId: string };
      now: Date;
    }
  | {
      type: 'ConvertLead';
      tenantId: string;
      accountId: string;
      newAccount: boolean;
      now: Date;
    };

export interface LeadConversion {
  tenantId: string;
  accountId: string;
  newAccount: boolean;
  plan: 'pilot' | 'enterprise';
  convertedAt: string;
}

export type LeadState =
  | { status: 'absent' }
  | {
      status: 'received' | 'converted';
      leadId: string;
      objective: LeadObjective;
      contactEmail: string;
      company: string | null;
      agentName: string | null;
      pilotDays: number;
      /** The account of the key the lead came with, or null. */
      accountId: string | null;
      conversion: LeadConversion | null;
    };

/**
 * An operator-pilot lead: submitted once (its id is new), with the pilot terms of the day
 * (objective, funding pack, 14 days) fixed in the event; converted once by an operator into a
 * tenant (a pilot for an operator_pilot lead, enterprise access for an enterprise one).
 */
export const leadDecider: Decider<LeadCommand, LeadEvent, LeadState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'OperatorPilotLeadSubmitted': {
        const d = event.data;
        return {
          status: 'received',
          leadId: d.lead_id,
          objective: d.objective,
          contactEmail: d.contact_email,
          company: d.company,
          agentName: d.agent_name,
          pilotDays: d.pilot_days,
          accountId: d.account_id ?? null,
          conversion: null,
        };
      }
      case 'LeadConverted': {
        if (state.status === 'absent') return state;
        const d = event.data;
        return {
          ...state,
          status: 'converted',
          conversion: {
            tenantId: d.tenant_id,
            accountId: d.account_id,
            newAccount: d.new_account,
            plan: d.plan,
            convertedAt: d.converted_at,
          },
        };
      }
      default:
        return assertNever(event);
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
              ...(command.caller ? { account_id: command.caller.accountId, key_id: command.caller.keyId } : {}),
              submitted_at: command.now.toISOString(),
            },
          },
        ];
      }
      case 'ConvertLead': {
        if (state.status === 'absent') throw leadNotFound();
        if (state.conversion) {
          // Running the same conversion again changes nothing; onto another account, it is refused.
          if (state.conversion.accountId === command.accountId && state.conversion.tenantId === command.tenantId)
            return [];
          throw leadAlreadyConverted(state.conversion);
        }
        return [
          {
            type: 'LeadConverted',
            data: {
              lead_id: state.leadId,
              tenant_id: command.tenantId,
              account_id: command.accountId,
              new_account: command.newAccount,
              plan: state.objective === 'enterprise' ? 'enterprise' : 'pilot',
              converted_by: 'operator',
              converted_at: command.now.toISOString(),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

export const leadNotFound = () => Errors.notFound('No lead with this id.', 'LEAD_NOT_FOUND');

export const leadAlreadyConverted = (conversion: LeadConversion) =>
  Errors.conflict(
    `The lead was converted already, into tenant ${conversion.tenantId} on account ${conversion.accountId}.`,
    'LEAD_ALREADY_CONVERTED',
    { tenant_id: conversion.tenantId, account_id: conversion.accountId },
  );
