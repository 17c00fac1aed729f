import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '#access';
import { findPage, type ListPage } from '#http';
import { ProjectionStore } from '#projections';
import { type AgentKeyView, ListAgentKeysQuery } from './list-keys.query.js';

@QueryHandler(ListAgentKeysQuery)
export class ListAgentKeysHandler implements IQueryHandler<ListAgentKeysQuery, ListPage<AgentKeyView>> {
  constructor(private readonly projections: ProjectionStore) {}

  async execute({ accountId, currentKeyId, limit, cursor }: ListAgentKeysQuery): Promise<ListPage<AgentKeyView>> {
    const keys = this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION);
    return findPage(keys, { account_id: accountId }, [['created_at', -1]], { limit, cursor }, (doc) => ({
      id: doc.id,
      name: doc.name,
      prefix: doc.display_prefix,
      created_at: doc.created_at,
      revoked_at: doc.revoked_at,
      current: doc.id === currentKeyId,
    }));
  }
}
