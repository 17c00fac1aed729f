import { assertNever, type Decider, Errors } from '#kernel';
import type { DealChanges, DealStage, WorkspaceEvent } from './workspace.events.js';

type DealEvent = Extract<
  WorkspaceEvent,
  { type: 'WorkspaceDealCreated' | 'WorkspaceDealUpdated' | 'WorkspaceDealStageChanged' }
>;

export interface DealFields {
  name: string;
  amount_usd: number | null;
  next_step: string | null;
  owner: string | null;
  notes: string | null;
}

export type DealState = { status: 'none' } | ({ status: 'open'; dealId: string; stage: DealStage } & DealFields);

export type DealCommand =
  | {
      type: 'CreateDeal';
      tenantId: string;
      dealId: string;
      companyId: string;
      name: string;
      stage: DealStage;
      amountUsd: number | null;
      owner: string | null;
      by: string;
      now: Date;
    }
  | { type: 'UpdateDeal'; tenantId: string; stage?: DealStage; changes: DealChanges; by: string; now: Date };

const CLOSED: readonly DealStage[] = ['closed_won', 'closed_lost'];

/**
 * The stage rule (ADR 0060): an open deal moves to any stage, forwards or back (pipelines are
 * revisited); a closed deal (won or lost) only reopens, to `screening`, and never turns from won
 * to lost or back directly (reopen first): the outcome of a closed deal is a fact, not a typo fix.
 */
export function allowedStageMoves(from: DealStage): DealStage[] {
  if (CLOSED.includes(from)) return ['screening'];
  return ['sourced', 'screening', 'diligence', 'ic', 'term_sheet', 'closed_won', 'closed_lost'].filter(
    (s) => s !== from,
  ) as DealStage[];
}

/** A deal (stream `wsdeal-{tenant}-{id}`): created on a workspace company, then updated. */
export const dealDecider: Decider<DealCommand, DealEvent, DealState> = {
  initialState: { status: 'none' },
  evolve(state, event) {
    switch (event.type) {
      case 'WorkspaceDealCreated':
        return {
          status: 'open',
          dealId: event.data.deal_id,
          stage: event.data.stage,
          name: event.data.name,
          amount_usd: event.data.amount_usd,
          next_step: null,
          owner: event.data.owner,
          notes: null,
        };
      case 'WorkspaceDealUpdated':
        if (state.status === 'none') return state;
        return { ...state, ...event.data.changes };
      case 'WorkspaceDealStageChanged':
        if (state.status === 'none') return state;
        return { ...state, stage: event.data.to };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'CreateDeal':
        if (state.status !== 'none') throw Errors.conflict('The deal exists already.', 'DEAL_EXISTS');
        return [
          {
            type: 'WorkspaceDealCreated',
            data: {
              tenant_id: command.tenantId,
              deal_id: command.dealId,
              company_id: command.companyId,
              name: command.name,
              stage: command.stage,
              amount_usd: command.amountUsd,
              owner: command.owner,
              created_by: command.by,
              created_at: at,
            },
          },
        ];
      case 'UpdateDeal': {
        if (state.status === 'none') throw Errors.notFound('No deal with this id in the workspace.', 'DEAL_NOT_FOUND');
        const events: DealEvent[] = [];
        if (command.stage !== undefined && command.stage !== state.stage) {
          const allowed = allowedStageMoves(state.stage);
          if (!allowed.includes(command.stage))
            throw Errors.conflict(
              `A deal at ${state.stage} cannot move to ${command.stage}; it can move to: ${allowed.join(', ')}.`,
              'DEAL_STAGE_TRANSITION_NOT_ALLOWED',
              { from: state.stage, to: command.stage, allowed },
            );
          events.push({
            type: 'WorkspaceDealStageChanged',
            data: {
              tenant_id: command.tenantId,
              deal_id: state.dealId,
              from: state.stage,
              to: command.stage,
              changed_by: command.by,
              changed_at: at,
            },
          });
        }
        const changes: DealChanges = {};
        for (const [field, value] of Object.entries(command.changes) as [keyof DealChanges, never][])
          if (value !== undefined && state[field] !== value) changes[field] = value;
        if (Object.keys(changes).length > 0)
          events.push({
            type: 'WorkspaceDealUpdated',
            data: {
              tenant_id: command.tenantId,
              deal_id: state.dealId,
              changes,
              updated_by: command.by,
              updated_at: at,
            },
          });
        return events;
      }
      default:
        return assertNever(command);
    }
  },
};
