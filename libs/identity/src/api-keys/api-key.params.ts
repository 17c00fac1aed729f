import { z } from 'zod';

/** `{key_id}` of /v1/api-keys/{key_id}; ids that cannot exist answer 404 like unknown ones. */
export const keyIdParams = z.object({ key_id: z.string().min(1).max(64).describe('Key id (`key_…`).') });
