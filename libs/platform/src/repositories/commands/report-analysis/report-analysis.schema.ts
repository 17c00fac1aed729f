import { z } from 'zod';

export const reportAnalysisBody = z
  .object({
    summary: z.string().trim().min(1).max(10_000).describe('What the analysis found, for people.'),
    commit_sha: z
      .string()
      .regex(/^[0-9a-fA-F]{7,64}$/, 'must be a hexadecimal commit id')
      .optional()
      .describe('The commit analysed.'),
    languages: z
      .array(z.string().trim().min(1).max(50))
      .max(50)
      .default([])
      .describe('Languages found, most used first.'),
    metrics: z
      .record(z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'metric names are snake_case'), z.number().finite())
      .refine((m) => Object.keys(m).length <= 50, { message: 'at most 50 metrics' })
      .default({})
      .describe('Named numbers: `lines_of_code`, `files`, `coverage_percent`, ...'),
  })
  .meta({ id: 'ReportAnalysisRequest' });
