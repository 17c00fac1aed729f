import { AppError, assertNever, type Decider, Errors } from '#kernel';
import type { RepositoryRef } from '../repositories/repository.events.js';
import {
  APPROVAL_TTL_MS,
  type ApprovalEvent,
  type ApprovalRequestData,
  type ApprovalStatus,
} from './approval.events.js';

export type ApprovalCommand =
  | {
      type: 'RequestApproval';
      approvalId: string;
      accountId: string;
      action: string;
      resource: { type: string; id: string };
      description: string | null;
      repository: RepositoryRef | null;
      runId: string | null;
      by: string | null;
      now: Date;
    }
  | {
      type: 'DecideApproval';
      approvalId: string;
      accountId: string;
      decision: 'approve' | 'reject';
      comment: string | null;
      by: string | null;
      now: Date;
    }
  /** The sweeper's: records the expiry of a pending approval whose time is up (nothing otherwise). */
  | { type: 'ExpireApproval'; approvalId: string; now: Date };

export type ApprovalState = { status: 'absent' } | { status: ApprovalStatus; request: ApprovalRequestData };

export const approvalNotFound = () => Errors.notFound('No such approval.', 'APPROVAL_NOT_FOUND');

const isDue = (request: ApprovalRequestData, now: Date) => now.getTime() >= Date.parse(request.expires_at);

export const approvalDecider: Decider<ApprovalCommand, ApprovalEvent, ApprovalState> = {
  initialState: { status: 'absent' },

  evolve(state, event) {
    switch (event.type) {
      case 'ApprovalRequested':
        return { status: 'pending', request: event.data };
      case 'ApprovalApproved':
        return state.status === 'absent' ? state : { ...state, status: 'approved' };
      case 'ApprovalRejected':
        return state.status === 'absent' ? state : { ...state, status: 'rejected' };
      case 'ApprovalExpired':
        return state.status === 'absent' ? state : { ...state, status: 'expired' };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RequestApproval': {
        if (state.status !== 'absent') throw Errors.conflict('The approval exists already.', 'APPROVAL_EXISTS');
        return [
          {
            type: 'ApprovalRequested',
            data: {
              approval_id: command.approvalId,
              account_id: command.accountId,
              action: command.action,
              resource: { type: command.resource.type, id: command.resource.id },
              description: command.description,
              repository: command.repository,
              run_id: command.runId,
              requested_by: command.by,
              requested_at: command.now.toISOString(),
              expires_at: new Date(command.now.getTime() + APPROVAL_TTL_MS).toISOString(),
            },
          },
        ];
      }
      case 'DecideApproval': {
        if (state.status === 'absent' || state.request.account_id !== command.accountId) throw approvalNotFound();
        if (state.status === 'expired' || (state.status === 'pending' && isDue(state.request, command.now))) {
          throw Errors.conflict(
            `The approval expired at ${state.request.expires_at}; request a new one.`,
            'APPROVAL_EXPIRED',
            { approval_status: 'expired' },
          );
        }
        if (state.status !== 'pending') {
          throw Errors.conflict(`The approval was ${state.status} already.`, 'APPROVAL_ALREADY_DECIDED', {
            approval_status: state.status,
          });
        }
        // Separation of duties: whoever asked cannot answer (a key approving its own push).
        if (command.by !== null && command.by === state.request.requested_by) {
          throw new AppError(
            'forbidden',
            'SELF_APPROVAL_FORBIDDEN',
            'The credential that requested an approval cannot decide it; use another key.',
          );
        }
        const data = {
          ...state.request,
          decided_by: command.by,
          comment: command.comment,
          decided_at: command.now.toISOString(),
        };
        return [
          command.decision === 'approve' ? { type: 'ApprovalApproved', data } : { type: 'ApprovalRejected', data },
        ];
      }
      case 'ExpireApproval': {
        if (state.status !== 'pending' || !isDue(state.request, command.now)) return [];
        return [
          {
            type: 'ApprovalExpired',
            data: {
              approval_id: state.request.approval_id,
              account_id: state.request.account_id,
              expired_at: state.request.expires_at,
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};
