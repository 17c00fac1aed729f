import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { RepositoryLookup } from '../../repository-lookup.js';
import { toRepositoryView, type RepositoryView } from '../../repository.view.js';
import { GetRepositoryQuery } from './get-repository.query.js';

@QueryHandler(GetRepositoryQuery)
export class GetRepositoryHandler implements IQueryHandler<GetRepositoryQuery, RepositoryView> {
  constructor(private readonly repositories: RepositoryLookup) {}

  async execute(query: GetRepositoryQuery): Promise<RepositoryView> {
    return toRepositoryView(await this.repositories.get(query.accountId, query.repositoryId));
  }
}
