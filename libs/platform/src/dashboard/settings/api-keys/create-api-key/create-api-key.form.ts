import { z } from 'zod';
import { checkboxes, csrfInput } from '#identity';

/** Settings → API keys, "Create key" (urlencoded). The command checks the rest, as for the API. */
export const createApiKeyForm = z.object({
  description: z.string().trim().min(1, 'enter a description').max(100, 'at most 100 characters'),
  scopes: checkboxes(12).refine((s) => s.length > 0, 'tick at least one scope'),
  ...csrfInput,
});

export const CREATE_API_KEY_LABELS = { description: 'Description', name: 'Description', scopes: 'Scopes' };
