import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { SecurityScanView } from '../../security.view.js';

export class ListScansQuery extends Query<ListPage<SecurityScanView>> {
  constructor(
    readonly accountId: string,
    readonly repositoryId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
