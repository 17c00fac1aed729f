import { Injectable } from '@nestjs/common';
import type { Doc, Filter, Sort } from '#documents';
import { Errors } from '#kernel';
import { findPage, type ListPage } from '#http';
import { ProjectionStore } from '#projections';
import {
  COMPANIES_COLLECTION,
  DEALS_COLLECTION,
  type DealDoc,
  WORKSPACE_PROJECTION,
  type WorkspaceCompanyDoc,
} from './workspace.projection.js';

/**
 * Tenant-scoped reads of the workspace read models. A record of another tenant is as unknown as
 * one that never existed (404, the same body): every lookup filters by the caller's tenant.
 */
@Injectable()
export class WorkspaceReads {
  constructor(private readonly projections: ProjectionStore) {}

  collection<T extends Doc>(name: string) {
    return this.projections.collection<T>(WORKSPACE_PROJECTION, name);
  }

  async company(tenantId: string, companyId: string): Promise<WorkspaceCompanyDoc> {
    const doc = await this.collection<WorkspaceCompanyDoc>(COMPANIES_COLLECTION).get(companyId);
    if (!doc || doc.tenant_id !== tenantId)
      throw Errors.notFound('No company with this id in the workspace.', 'WORKSPACE_COMPANY_NOT_FOUND');
    return doc;
  }

  async deal(tenantId: string, dealId: string): Promise<DealDoc> {
    const doc = await this.collection<DealDoc>(DEALS_COLLECTION).get(dealId);
    if (!doc || doc.tenant_id !== tenantId)
      throw Errors.notFound('No deal with this id in the workspace.', 'DEAL_NOT_FOUND');
    return doc;
  }

  /** A page of a tenant's documents (D6 list body); a cursor from another list is 400. */
  page<T extends Doc, V>(
    name: string,
    filter: Filter,
    sort: Sort,
    page: { limit: number; cursor?: string | undefined },
    view: (doc: T) => V,
  ): Promise<ListPage<V>> {
    return findPage(this.collection<T>(name), filter, sort, page, view);
  }
}
