import { Injectable } from '@nestjs/common';
import { ProjectionStore } from '#projections';
import { getOwned } from '../shared/find-page.js';
import { approvalNotFound } from './approval.decider.js';
import { APPROVALS_COLLECTION, APPROVALS_PROJECTION, type ApprovalDoc } from './approvals.projection.js';

@Injectable()
export class ApprovalLookup {
  constructor(private readonly projections: ProjectionStore) {}

  collection() {
    return this.projections.collection<ApprovalDoc>(APPROVALS_PROJECTION, APPROVALS_COLLECTION);
  }

  get(accountId: string, approvalId: string): Promise<ApprovalDoc> {
    return getOwned(this.collection(), approvalId, accountId, approvalNotFound);
  }
}
