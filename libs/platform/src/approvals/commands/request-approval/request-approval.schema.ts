import { z } from 'zod';

const slug = z
  .string()
  .regex(/^[a-z][a-z0-9_.:-]{0,99}$/, 'lower-case letters, digits and _ . : - (starting with a letter), at most 100');

export const requestApprovalBody = z
  .object({
    action: slug.describe('What the requester wants to do: `push_fix`, `merge_pull_request`, `deploy`, ...'),
    resource: z
      .strictObject({
        type: slug.describe('`pull_request`, `branch`, `deployment`, ...'),
        id: z.string().trim().min(1).max(200),
      })
      .describe('What the action would act on.'),
    description: z.string().trim().min(1).max(4000).optional().describe('For the person deciding.'),
    repository_id: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe("A connected repository it concerns (put in the events' `repository`). Default: the run's repository."),
    run_id: z.string().min(1).max(64).optional().describe('The run that asks, if any.'),
  })
  .meta({ id: 'RequestApprovalRequest' });
