import type { RecordedEvent } from '#eventstore';
import type { ProjectionDefinition } from '#projections';
import type { ApiKeyEvent } from './api-key.events.js';
import { API_KEY_EVENT_TYPES } from './api-key.events.js';

/** Read model of API keys: looked up by hash on every request, listed per account. */
export interface ApiKeyDoc {
  [key: string]: unknown;
  id: string;
  account_id: string;
  name: string;
  scopes: string[];
  key_hash: string;
  display_prefix: string;
  surface: 'platform' | 'agent';
  environment: 'live' | 'test';
  created_by: string | null;
  created_at: string;
  revoked_at: string | null;
}

export const API_KEYS_PROJECTION = 'api-keys';
export const API_KEYS_COLLECTION = 'api_keys';

export const apiKeysProjection: ProjectionDefinition = {
  name: API_KEYS_PROJECTION,
  version: 1,
  eventTypes: API_KEY_EVENT_TYPES,
  collections: [
    {
      name: API_KEYS_COLLECTION,
      indexes: [
        { fields: [['key_hash', 1]], unique: true },
        {
          fields: [
            ['account_id', 1],
            ['created_at', -1],
          ],
        },
      ],
    },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as ApiKeyEvent;
    switch (event.type) {
      case 'ApiKeyCreated': {
        const d = event.data;
        const doc: ApiKeyDoc = {
          id: d.key_id,
          account_id: d.account_id,
          name: d.name,
          scopes: d.scopes,
          key_hash: d.key_hash,
          display_prefix: d.display_prefix,
          surface: d.surface,
          environment: d.environment,
          created_by: d.created_by,
          created_at: d.created_at,
          revoked_at: null,
        };
        ctx.upsert(API_KEYS_COLLECTION, doc);
        return;
      }
      case 'ApiKeyRevoked': {
        const doc = await ctx.get<ApiKeyDoc>(API_KEYS_COLLECTION, event.data.key_id);
        if (doc) ctx.upsert(API_KEYS_COLLECTION, { ...doc, revoked_at: event.data.revoked_at });
        return;
      }
    }
  },
};
