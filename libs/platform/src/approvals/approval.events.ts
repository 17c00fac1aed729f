import type { RepositoryRef } from '../repositories/repository.events.js';

/** D11: pending → approved | rejected | expired. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** D11: an approval left undecided expires 7 days after it was requested. */
export const APPROVAL_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** What was asked, repeated by every approval event so each can be published on its own. */
export interface ApprovalRequestData {
  approval_id: string;
  account_id: string;
  /** What the requester wants to do (`push_fix`, `merge_pull_request`, ...). */
  action: string;
  /** What it would act on. */
  resource: { type: string; id: string };
  description: string | null;
  repository: RepositoryRef | null;
  run_id: string | null;
  requested_by: string | null;
  requested_at: string;
  expires_at: string;
}

export interface ApprovalDecisionData {
  decided_by: string | null;
  comment: string | null;
  decided_at: string;
}

/** Stored event types of `approval-{apr_id}` streams. Names are stable: never rename. */
export type ApprovalEvent =
  | { type: 'ApprovalRequested'; data: ApprovalRequestData }
  | { type: 'ApprovalApproved'; data: ApprovalRequestData & ApprovalDecisionData }
  | { type: 'ApprovalRejected'; data: ApprovalRequestData & ApprovalDecisionData }
  | { type: 'ApprovalExpired'; data: { approval_id: string; account_id: string; expired_at: string } };

export const APPROVAL_EVENT_TYPES: ApprovalEvent['type'][] = [
  'ApprovalRequested',
  'ApprovalApproved',
  'ApprovalRejected',
  'ApprovalExpired',
];

export const approvalStream = (approvalId: string) => `approval-${approvalId}`;
