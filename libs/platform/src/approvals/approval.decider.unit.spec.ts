import { describe, it } from 'node:test';
import { AppError, type ErrorKind } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { type ApprovalCommand, approvalDecider } from './approval.decider.js';
import { APPROVAL_TTL_MS, type ApprovalEvent, type ApprovalRequestData } from './approval.events.js';

const spec = deciderSpec(approvalDecider);
const t0 = new Date('2026-03-01T10:00:00.000Z');
const deadline = new Date(t0.getTime() + APPROVAL_TTL_MS);
const justBefore = new Date(deadline.getTime() - 1);
const code = (c: string, kind: ErrorKind) => (e: unknown) => e instanceof AppError && e.code === c && e.kind === kind;

const request: ApprovalCommand = {
  type: 'RequestApproval',
  approvalId: 'apr_1',
  accountId: 'acct_1',
  action: 'push_fix',
  resource: { type: 'pull_request', id: '42' },
  description: 'Push the lint fix',
  repository: { id: 'repo_1', name: 'acme/web' },
  runId: 'run_1',
  by: 'key_agent',
  now: t0,
};
const requestData: ApprovalRequestData = {
  approval_id: 'apr_1',
  account_id: 'acct_1',
  action: 'push_fix',
  resource: { type: 'pull_request', id: '42' },
  description: 'Push the lint fix',
  repository: { id: 'repo_1', name: 'acme/web' },
  run_id: 'run_1',
  requested_by: 'key_agent',
  requested_at: t0.toISOString(),
  expires_at: '2026-03-08T10:00:00.000Z',
};
const requested: ApprovalEvent = { type: 'ApprovalRequested', data: requestData };
const decide = (
  decision: 'approve' | 'reject',
  now = justBefore,
  by = 'key_admin',
  accountId = 'acct_1',
): ApprovalCommand => ({
  type: 'DecideApproval',
  approvalId: 'apr_1',
  accountId,
  decision,
  comment: 'ok',
  by,
  now,
});
const decision = { decided_by: 'key_admin', comment: 'ok', decided_at: justBefore.toISOString() };
const approved: ApprovalEvent = { type: 'ApprovalApproved', data: { ...requestData, ...decision } };
const rejected: ApprovalEvent = { type: 'ApprovalRejected', data: { ...requestData, ...decision } };
const expired: ApprovalEvent = {
  type: 'ApprovalExpired',
  data: { approval_id: 'apr_1', account_id: 'acct_1', expired_at: deadline.toISOString() },
};
const expire = (now: Date): ApprovalCommand => ({ type: 'ExpireApproval', approvalId: 'apr_1', now });

describe('approval decider', () => {
  it('requests an approval that expires 7 days later', () => spec.given([]).when(request).then([requested]));

  it('approves or rejects a pending approval until the last millisecond before its deadline', () => {
    spec.given([requested]).when(decide('approve')).then([approved]);
    spec.given([requested]).when(decide('reject')).then([rejected]);
  });

  it('deciding twice → 409 APPROVAL_ALREADY_DECIDED, whichever way', () => {
    for (const past of [approved, rejected]) {
      spec.given([requested, past]).when(decide('approve')).thenThrows(code('APPROVAL_ALREADY_DECIDED', 'conflict'));
      spec.given([requested, past]).when(decide('reject')).thenThrows(code('APPROVAL_ALREADY_DECIDED', 'conflict'));
    }
  });

  it('at or after the deadline it cannot be decided (409 APPROVAL_EXPIRED), recorded or not', () => {
    spec.given([requested]).when(decide('approve', deadline)).thenThrows(code('APPROVAL_EXPIRED', 'conflict'));
    spec.given([requested, expired]).when(decide('approve')).thenThrows(code('APPROVAL_EXPIRED', 'conflict'));
    spec.given([requested, expired]).when(decide('reject', t0)).thenThrows(code('APPROVAL_EXPIRED', 'conflict'));
  });

  it('the requester cannot decide its own request (403 SELF_APPROVAL_FORBIDDEN)', () =>
    spec
      .given([requested])
      .when(decide('approve', justBefore, 'key_agent'))
      .thenThrows(code('SELF_APPROVAL_FORBIDDEN', 'forbidden')));

  it("unknown approvals and other accounts' are 404", () => {
    spec.given([]).when(decide('approve')).thenThrows(code('APPROVAL_NOT_FOUND', 'not_found'));
    spec
      .given([requested])
      .when(decide('approve', justBefore, 'key_admin', 'acct_2'))
      .thenThrows(code('APPROVAL_NOT_FOUND', 'not_found'));
  });

  it('the sweeper expires a pending approval at its deadline, once, and nothing else', () => {
    spec.given([requested]).when(expire(deadline)).then([expired]);
    spec.given([requested]).when(expire(justBefore)).then([]);
    spec.given([requested, expired]).when(expire(deadline)).then([]);
    spec.given([requested, approved]).when(expire(deadline)).then([]);
    spec.given([]).when(expire(deadline)).then([]);
  });

  it('requesting twice is refused', () =>
    spec.given([requested]).when(request).thenThrows(code('APPROVAL_EXISTS', 'conflict')));
});
