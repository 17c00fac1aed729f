import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import { ProjectionStore } from '#projections';
import { findPage } from '../../../shared/find-page.js';
import { RepositoryLookup } from '../../repository-lookup.js';
import {
  type AnalysisDoc,
  REPOSITORIES_PROJECTION,
  REPOSITORY_ANALYSES_COLLECTION,
} from '../../repositories.projection.js';
import { type AnalysisView, toAnalysisView } from '../../repository.view.js';
import { ListAnalysesQuery } from './list-analyses.query.js';

/** A repository's analyses, newest first. */
@QueryHandler(ListAnalysesQuery)
export class ListAnalysesHandler implements IQueryHandler<ListAnalysesQuery, ListPage<AnalysisView>> {
  constructor(
    private readonly projections: ProjectionStore,
    private readonly repositories: RepositoryLookup,
  ) {}

  async execute(query: ListAnalysesQuery): Promise<ListPage<AnalysisView>> {
    const repository = await this.repositories.get(query.accountId, query.repositoryId);
    const collection = this.projections.collection<AnalysisDoc>(
      REPOSITORIES_PROJECTION,
      REPOSITORY_ANALYSES_COLLECTION,
    );
    return findPage(collection, { repository_id: repository.id }, [['analyzed_at', -1]], query, toAnalysisView);
  }
}
