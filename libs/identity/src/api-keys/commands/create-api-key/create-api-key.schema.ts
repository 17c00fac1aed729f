import { z } from 'zod';
import { SCOPES } from '#access';

export const createApiKeyBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe('Label of the key.'),
    scopes: z
      .array(z.enum(SCOPES))
      .min(1)
      .max(SCOPES.length)
      .describe('Scopes granted; the caller must hold each of them (admin implies all).'),
  })
  .meta({ id: 'CreateApiKeyRequest' });

export const createdApiKeySchema = z
  .object({
    id: z.string().describe('Key id (`key_…`).'),
    key: z.string().describe('The key value. Shown only in this response: store it now.'),
    name: z.string(),
    scopes: z.array(z.enum(SCOPES)),
    created_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'CreatedApiKey' });
