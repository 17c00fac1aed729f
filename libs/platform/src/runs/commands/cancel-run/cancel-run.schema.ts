import { z } from 'zod';

export const cancelRunBody = z
  .strictObject({ reason: z.string().trim().min(1).max(1000).optional().describe('Why, for people.') })
  .optional()
  .meta({ id: 'CancelRunRequest' });
