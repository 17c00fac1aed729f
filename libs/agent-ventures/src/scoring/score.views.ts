import { z } from 'zod';
import type { CompanyScoreDoc } from './company-scores.projection.js';
import { COMPONENT_NAMES } from './scoring-model.js';

export const scoreComponentSchema = z
  .strictObject({
    name: z.enum(COMPONENT_NAMES),
    value: z.number().min(0).max(100).describe('0–100, one decimal.'),
    weight: z.number().min(0).max(1).describe('Share of the score (0.25 = 25 %); the weights sum to 1.'),
    contribution: z
      .number()
      .min(0)
      .max(100)
      .describe('value × weight rounded half up to two decimals; the contributions sum exactly to the score.'),
    inputs: z
      .record(z.string(), z.union([z.string(), z.number(), z.null()]))
      .describe('The profile facts the value was computed from.'),
    explanation: z.string(),
  })
  .meta({ id: 'CompanyScoreComponent' });

export const companyScoreSchema = z
  .strictObject({
    company_id: z.string(),
    name: z.string(),
    domain: z.string(),
    score: z.number().min(0).max(100).describe('0–100, two decimals: the sum of the component contributions.'),
    model_version: z.string(),
    computed_at: z.iso
      .datetime()
      .describe('Time of the import event the score was computed from (not the time of this request).'),
    components: z.array(scoreComponentSchema),
    explanation: z.string(),
  })
  .meta({ id: 'CompanyScore' });
export type CompanyScoreView = z.output<typeof companyScoreSchema>;

export function toScoreView(doc: CompanyScoreDoc): CompanyScoreView {
  return {
    company_id: doc.id,
    name: doc.name,
    domain: doc.domain,
    score: doc.score,
    model_version: doc.model_version,
    computed_at: doc.computed_at,
    components: doc.components,
    explanation: doc.explanation,
  };
}
