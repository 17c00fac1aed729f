import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import { findPage } from '../../../shared/find-page.js';
import { SECURITY_PROJECTION, VULNERABILITIES_COLLECTION, type VulnerabilityDoc } from '../../security.projection.js';
import { toVulnerabilityAlertView, type VulnerabilityAlertView } from '../../security.view.js';
import { ListVulnerabilitiesQuery } from './list-vulnerabilities.query.js';

/** A repository's alerts, most severe first, then newest first. */
@QueryHandler(ListVulnerabilitiesQuery)
export class ListVulnerabilitiesHandler implements IQueryHandler<
  ListVulnerabilitiesQuery,
  ListPage<VulnerabilityAlertView>
> {
  constructor(
    private readonly repositories: RepositoryLookup,
    private readonly projections: ProjectionStore,
  ) {}

  async execute(query: ListVulnerabilitiesQuery): Promise<ListPage<VulnerabilityAlertView>> {
    const repository = await this.repositories.get(query.accountId, query.repositoryId);
    const filter: Filter = { repository_id: repository.id };
    if (query.state !== 'all') filter.state = query.state;
    if (query.severity) filter['vulnerability.severity'] = query.severity;
    const collection = this.projections.collection<VulnerabilityDoc>(SECURITY_PROJECTION, VULNERABILITIES_COLLECTION);
    return findPage(
      collection,
      filter,
      [
        ['severity_rank', -1],
        ['detected_at', -1],
      ],
      query,
      toVulnerabilityAlertView,
    );
  }
}
