import { z } from 'zod';
import { SCOPES } from '../auth/scopes.js';
import type { ApiKeyDoc } from './api-keys.projection.js';

/** An API key as the API shows it: never its value nor its hash. */
export const apiKeyViewSchema = z
  .object({
    id: z.string().describe('Key id (`key_…`); DELETE /v1/api-keys/{key_id} revokes it.'),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    prefix: z.string().describe('The first characters of the key value, to recognise it (not secret).'),
    created_at: z.string().describe('ISO 8601 UTC.'),
    last_used_at: z.string().nullable().describe('ISO 8601 UTC, updated at most once a minute; null if never used.'),
    revoked_at: z.string().nullable().describe('ISO 8601 UTC; null while the key works.'),
  })
  .meta({ id: 'ApiKey' });

export type ApiKeyView = z.output<typeof apiKeyViewSchema>;

export function toApiKeyView(doc: ApiKeyDoc, lastUsedAt: string | undefined): ApiKeyView {
  return {
    id: doc.id,
    name: doc.name,
    scopes: doc.scopes as ApiKeyView['scopes'],
    prefix: doc.display_prefix,
    created_at: doc.created_at,
    last_used_at: lastUsedAt ?? null,
    revoked_at: doc.revoked_at,
  };
}
