import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import { findPage } from '../../../shared/find-page.js';
import { REPOSITORIES_COLLECTION, REPOSITORIES_PROJECTION, type RepositoryDoc } from '../../repositories.projection.js';
import { toRepositoryView, type RepositoryView } from '../../repository.view.js';
import { ListRepositoriesQuery } from './list-repositories.query.js';

/** The account's repositories, most recently connected first. */
@QueryHandler(ListRepositoriesQuery)
export class ListRepositoriesHandler implements IQueryHandler<ListRepositoriesQuery, ListPage<RepositoryView>> {
  constructor(private readonly projections: ProjectionStore) {}

  execute(query: ListRepositoriesQuery): Promise<ListPage<RepositoryView>> {
    const collection = this.projections.collection<RepositoryDoc>(REPOSITORIES_PROJECTION, REPOSITORIES_COLLECTION);
    const filter: Filter = { account_id: query.accountId };
    if (query.status !== 'all') filter.status = query.status;
    return findPage(collection, filter, [['connected_at', -1]], query, toRepositoryView);
  }
}
