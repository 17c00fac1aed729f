import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { Filter } from '#documents';
import { ProjectionStore } from '#projections';
import { RepositoryLookup } from '../../../repositories/repository-lookup.js';
import { findPage } from '../../../shared/find-page.js';
import type { PlatformEventEnvelope } from '../../platform-event.js';
import {
  envelopeOf,
  PLATFORM_EVENTS_COLLECTION,
  PLATFORM_EVENTS_PROJECTION,
  type PlatformEventDoc,
} from '../../platform-events.projection.js';
import { ListEventsQuery } from './list-events.query.js';

/**
 * The account's platform events, newest first (by commit order). `repository` is an id, or an
 * `owner/repo` name meaning every connection of that name (a name connected again gets a new id).
 */
@QueryHandler(ListEventsQuery)
export class ListEventsHandler implements IQueryHandler<ListEventsQuery, ListPage<PlatformEventEnvelope>> {
  constructor(
    private readonly projections: ProjectionStore,
    private readonly repositories: RepositoryLookup,
  ) {}

  async execute(query: ListEventsQuery): Promise<ListPage<PlatformEventEnvelope>> {
    const filter: Filter = { account_id: query.accountId };
    const types = query.filters.types;
    if (types?.length === 1) filter.type = types[0]!;
    else if (types && types.length > 1) filter.type = { $in: types };
    const repository = query.filters.repository;
    if (repository) {
      const ids = repository.includes('/')
        ? await this.repositories.idsByName(query.accountId, repository)
        : [repository];
      if (ids.length === 0) return { data: [], has_more: false, next_cursor: null };
      filter['repository.id'] = ids.length === 1 ? ids[0]! : { $in: ids };
    }
    const collection = this.projections.collection<PlatformEventDoc>(
      PLATFORM_EVENTS_PROJECTION,
      PLATFORM_EVENTS_COLLECTION,
    );
    return findPage(collection, filter, [['position', -1]], query, envelopeOf);
  }
}
