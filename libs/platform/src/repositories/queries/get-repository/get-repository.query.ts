import { Query } from '@nestjs/cqrs';
import type { RepositoryView } from '../../repository.view.js';

/** One repository of the account, connected or not; 404 for unknown ids and other accounts' alike. */
export class GetRepositoryQuery extends Query<RepositoryView> {
  constructor(
    readonly accountId: string,
    readonly repositoryId: string,
  ) {
    super();
  }
}
