import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { RepositoryView } from '../../repository.view.js';

export class ListRepositoriesQuery extends Query<ListPage<RepositoryView>> {
  constructor(
    readonly accountId: string,
    readonly status: 'connected' | 'disconnected' | 'all',
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
