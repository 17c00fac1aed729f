import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { MemoView } from '../../workspace.views.js';

/** Earlier versions of a memo, newest first, read from its stream (the events are the history). */
export class ListMemoVersionsQuery extends Query<ListPage<MemoView>> {
  constructor(
    readonly tenantId: string,
    readonly companyId: string,
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}
