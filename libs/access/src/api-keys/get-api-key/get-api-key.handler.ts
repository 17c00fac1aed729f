import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { Errors } from '#kernel';
import { ProjectionStore } from '#projections';
import { ApiKeyUsageTracker } from '../api-key-usage.js';
import { type ApiKeyView, toApiKeyView } from '../api-key.view.js';
import { API_KEYS_COLLECTION, API_KEYS_PROJECTION, type ApiKeyDoc } from '../api-keys.projection.js';
import { GetApiKeyQuery } from './get-api-key.query.js';

@QueryHandler(GetApiKeyQuery)
export class GetApiKeyHandler implements IQueryHandler<GetApiKeyQuery, ApiKeyView> {
  constructor(
    private readonly projections: ProjectionStore,
    private readonly usage: ApiKeyUsageTracker,
  ) {}

  async execute(query: GetApiKeyQuery): Promise<ApiKeyView> {
    const doc = await this.projections.collection<ApiKeyDoc>(API_KEYS_PROJECTION, API_KEYS_COLLECTION).get(query.keyId);
    if (!doc || doc.account_id !== query.accountId) throw Errors.notFound('No such API key.', 'KEY_NOT_FOUND');
    const lastUsed = await this.usage.lastUsed([doc.id]);
    return toApiKeyView(doc, lastUsed.get(doc.id));
  }
}
