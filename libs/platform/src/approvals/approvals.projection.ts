import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { RepositoryRef } from '../repositories/repository.events.js';
import { APPROVAL_EVENT_TYPES, type ApprovalEvent, type ApprovalStatus } from './approval.events.js';

export interface ApprovalDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  status: ApprovalStatus;
  action: string;
  resource: { type: string; id: string };
  description: string | null;
  repository: RepositoryRef | null;
  run_id: string | null;
  requested_by: string | null;
  requested_at: string;
  expires_at: string;
  decided_by: string | null;
  decided_at: string | null;
  comment: string | null;
}

export const APPROVALS_PROJECTION = 'approvals';
export const APPROVALS_COLLECTION = 'approvals';

export const approvalsProjection: ProjectionDefinition = {
  name: APPROVALS_PROJECTION,
  version: 1,
  eventTypes: APPROVAL_EVENT_TYPES,
  collections: [
    {
      name: APPROVALS_COLLECTION,
      indexes: [
        {
          fields: [
            ['account_id', 1],
            ['requested_at', -1],
          ],
        },
        {
          fields: [
            ['account_id', 1],
            ['status', 1],
            ['requested_at', -1],
          ],
        },
        // The expiry sweeper: pending approvals by deadline, across accounts.
        {
          fields: [
            ['status', 1],
            ['expires_at', 1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as ApprovalEvent;
    switch (event.type) {
      case 'ApprovalRequested': {
        const d = event.data;
        const doc: ApprovalDoc = {
          id: d.approval_id,
          account_id: d.account_id,
          status: 'pending',
          action: d.action,
          resource: d.resource,
          description: d.description,
          repository: d.repository,
          run_id: d.run_id,
          requested_by: d.requested_by,
          requested_at: d.requested_at,
          expires_at: d.expires_at,
          decided_by: null,
          decided_at: null,
          comment: null,
        };
        ctx.upsert(APPROVALS_COLLECTION, doc);
        return;
      }
      case 'ApprovalApproved':
      case 'ApprovalRejected': {
        const d = event.data;
        const doc = await ctx.get<ApprovalDoc>(APPROVALS_COLLECTION, d.approval_id);
        if (doc) {
          ctx.upsert(APPROVALS_COLLECTION, {
            ...doc,
            status: event.type === 'ApprovalApproved' ? 'approved' : 'rejected',
            decided_by: d.decided_by,
            decided_at: d.decided_at,
            comment: d.comment,
          });
        }
        return;
      }
      case 'ApprovalExpired': {
        const doc = await ctx.get<ApprovalDoc>(APPROVALS_COLLECTION, event.data.approval_id);
        if (doc) ctx.upsert(APPROVALS_COLLECTION, { ...doc, status: 'expired' });
        return;
      }
    }
  },
};
