import { z } from 'zod';

export const failRunBody = z
  .object({
    error: z
      .strictObject({
        message: z.string().trim().min(1).max(4000),
        code: z
          .string()
          .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'letters, digits and _ . : - only')
          .optional()
          .describe('Machine-readable cause (`timeout`, `clone_failed`, ...).'),
      })
      .describe('Why the run failed.'),
  })
  .meta({ id: 'FailRunRequest' });
