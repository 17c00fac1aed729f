import { z } from 'zod';
import { APPROVAL_STATUSES } from './approval.events.js';
import type { ApprovalDoc } from './approvals.projection.js';

export const approvalViewSchema = z
  .object({
    id: z.string().describe('Approval id (`apr_…`).'),
    status: z.enum(APPROVAL_STATUSES).describe('pending → approved | rejected | expired (7 days after the request).'),
    action: z.string().describe('What the requester wants to do (`push_fix`, ...).'),
    resource: z.object({ type: z.string(), id: z.string() }).describe('What it would act on.'),
    description: z.string().nullable(),
    repository: z.object({ id: z.string(), name: z.string() }).nullable(),
    run_id: z.string().nullable(),
    requested_by: z.string().nullable().describe('Credential (`key_…`) that asked.'),
    requested_at: z.string().describe('ISO 8601 UTC.'),
    expires_at: z.string().describe('ISO 8601 UTC; a pending approval cannot be decided from then on.'),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
    comment: z.string().nullable(),
  })
  .meta({ id: 'Approval' });
export type ApprovalView = z.output<typeof approvalViewSchema>;

/** A pending approval whose time is up shows as expired at once, before the sweeper records it. */
export function toApprovalView(doc: ApprovalDoc, now: Date): ApprovalView {
  const due = doc.status === 'pending' && now.getTime() >= Date.parse(doc.expires_at);
  return {
    id: doc.id,
    status: due ? 'expired' : doc.status,
    action: doc.action,
    resource: doc.resource,
    description: doc.description,
    repository: doc.repository,
    run_id: doc.run_id,
    requested_by: doc.requested_by,
    requested_at: doc.requested_at,
    expires_at: doc.expires_at,
    decided_by: doc.decided_by,
    decided_at: doc.decided_at,
    comment: doc.comment,
  };
}

export const approvalIdParams = z.object({ id: z.string().min(1).max(64).describe('Approval id (`apr_…`).') });
