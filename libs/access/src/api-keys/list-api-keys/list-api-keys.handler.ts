import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { invalidCursor, type ListPage, toListPage } from '#http';
import { ProjectionStore } from '#projections';
import { ApiKeyUsageTracker } from '../api-key-usage.js';
import type { ApiKeyView } from '../api-key.view.js';
import { toApiKeyView } from '../api-key.view.js';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '../api-keys.projection.js';
import { ListApiKeysQuery } from './list-api-keys.query.js';

/** An account's keys, newest first, revoked ones included (with revoked_at), by keyset pages (D6). */
@QueryHandler(ListApiKeysQuery)
export class ListApiKeysHandler implements IQueryHandler<ListApiKeysQuery, ListPage<ApiKeyView>> {
  constructor(
    private readonly projections: ProjectionStore,
    private readonly usage: ApiKeyUsageTracker,
  ) {}

  async execute(query: ListApiKeysQuery): Promise<ListPage<ApiKeyView>> {
    const keys = this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION);
    let result;
    try {
      result = await keys.find(
        { account_id: query.accountId },
        { sort: [['created_at', -1]], limit: query.limit, ...(query.cursor ? { after: query.cursor } : {}) },
      );
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
    const lastUsed = await this.usage.lastUsed(result.items.map((k) => k.id));
    return toListPage(result, (doc) => toApiKeyView(doc, lastUsed.get(doc.id)));
  }
}
