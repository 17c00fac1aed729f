import { Query } from '@nestjs/cqrs';
import type { MemoView } from '../../workspace.views.js';

/** A workspace company's current memo (version 0 and an empty body before the first write). */
export class GetMemoQuery extends Query<MemoView> {
  constructor(
    readonly tenantId: string,
    readonly companyId: string,
  ) {
    super();
  }
}
