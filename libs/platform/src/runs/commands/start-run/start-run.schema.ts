import { z } from 'zod';

export const startRunBody = z
  .object({
    repository_id: z.string().min(1).max(64).describe('A connected repository of the account (`repo_…`).'),
    pull_request: z
      .strictObject({
        number: z.number().int().min(1).max(2_147_483_647),
        title: z.string().trim().min(1).max(256),
        url: z
          .string()
          .max(2048)
          .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), { message: 'must be an http or https URL' }),
      })
      .optional()
      .describe('The pull request the run is about, if any (carried into agent.* events).'),
    ref: z.string().trim().min(1).max(255).optional().describe('Branch, tag or commit to run against.'),
  })
  .meta({ id: 'StartRunRequest' });
