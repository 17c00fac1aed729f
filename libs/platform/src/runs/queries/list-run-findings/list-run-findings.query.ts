import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { FindingLevel } from '../../run.events.js';
import type { FindingView } from '../../run.view.js';

export class ListRunFindingsQuery extends Query<ListPage<FindingView>> {
  constructor(
    readonly accountId: string,
    readonly runId: string,
    readonly level: FindingLevel | undefined,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
