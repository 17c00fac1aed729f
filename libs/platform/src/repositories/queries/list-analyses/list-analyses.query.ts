import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { AnalysisView } from '../../repository.view.js';

export class ListAnalysesQuery extends Query<ListPage<AnalysisView>> {
  constructor(
    readonly accountId: string,
    readonly repositoryId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
