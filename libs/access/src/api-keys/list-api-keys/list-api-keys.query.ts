import { Query } from '@nestjs/cqrs';
import type { ListPage } from '#http';
import type { ApiKeyView } from '../api-key.view.js';

export class ListApiKeysQuery extends Query<ListPage<ApiKeyView>> {
  constructor(
    readonly accountId: string,
    readonly limit: number,
    readonly cursor?: string,
  ) {
    super();
  }
}
