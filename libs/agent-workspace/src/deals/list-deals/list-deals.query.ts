import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { DealStage } from '../../workspace.events.js';
import type { DealView } from '../../workspace.views.js';

/** The tenant's deals, newest first, optionally at one stage. */
export class ListDealsQuery extends Query<ListPage<DealView>> {
  constructor(
    readonly tenantId: string,
    readonly stage: DealStage | undefined,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
