import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import { invalidCursor, type ListPage, toListPage } from '#http';
import { ProjectionStore } from '#projections';
import { type AgentKeyView, ListAgentKeysQuery } from './list-keys.query.js';

@QueryHandler(ListAgentKeysQuery)
export class ListAgentKeysHandler implements IQueryHandler<ListAgentKeysQuery, ListPage<AgentKeyView>> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute({ accountId, currentKeyId, limit, cursor }: ListAgentKeysQuery): Promise<ListPage<AgentKeyView>> {
    let result;
    try {
      result = await this.projections
        .collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION)
        .find({ account_id: accountId }, { sort: [['created_at', -1]], limit, ...(cursor ? { after: cursor } : {}) });
    } catch (error) {
      if ((error as Error).name === 'InvalidFilterError') throw invalidCursor();
      throw error;
    }
    return toListPage(result, (doc) => ({
      id: doc.id,
      name: doc.name,
      prefix: doc.display_prefix,
      created_at: doc.created_at,
      revoked_at: doc.revoked_at,
      current: doc.id === currentKeyId,
    }));
  }
}
