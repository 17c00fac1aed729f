import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { ProjectionStore } from '#projections';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import { findPage } from '../../../shared/find-page.js';
import { type ScanDoc, SECURITY_PROJECTION, SECURITY_SCANS_COLLECTION } from '../../security.projection.js';
import { type SecurityScanView, toSecurityScanView } from '../../security.view.js';
import { ListScansQuery } from './list-scans.query.js';

/** A repository's scans, newest first. */
@QueryHandler(ListScansQuery)
export class ListScansHandler implements IQueryHandler<ListScansQuery, ListPage<SecurityScanView>> {
  constructor(
    private readonly repositories: RepositoryLookup,
    private readonly projections: ProjectionStore,
  ) {}

  async execute(query: ListScansQuery): Promise<ListPage<SecurityScanView>> {
    const repository = await this.repositories.get(query.accountId, query.repositoryId);
    const collection = this.projections.collection<ScanDoc>(SECURITY_PROJECTION, SECURITY_SCANS_COLLECTION);
    return findPage(collection, { repository_id: repository.id }, [['completed_at', -1]], query, toSecurityScanView);
  }
}
