import { z } from 'zod';

export const MODEL_HEALTH_STATUSES = ['ok', 'empty', 'catching_up', 'rebuilding', 'failed'] as const;

export const modelHealthSchema = z
  .strictObject({
    model_version: z.string().describe('The scoring model this deployment computes.'),
    status: z
      .enum(MODEL_HEALTH_STATUSES)
      .describe(
        'ok: scores are current; empty: no company imported yet; catching_up: imports not scored yet (see projection_lag); rebuilding: a new model version is re-scoring every company, the previous scores are served meanwhile; failed: the scoring projection stopped on an error.',
      ),
    companies_scored: z.int().min(0),
    last_import_at: z.iso.datetime().nullable().describe('Time of the last import that changed a company.'),
    projection_lag: z
      .int()
      .min(0)
      .describe(
        'Company events imported but not yet reflected in profiles and scores (0 = current; counted up to 1,000).',
      ),
    projections: z.array(
      z.strictObject({
        name: z.string(),
        version: z.int(),
        state: z.string(),
        lag: z.int().min(0),
        rebuilding: z.boolean(),
        last_error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'ModelHealth' });
export type ModelHealth = z.output<typeof modelHealthSchema>;
