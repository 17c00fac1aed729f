/**
 * What the API answers about companies, as zod schemas (the OpenAPI document and the tests
 * parse answers with them) and the mapping from read-model documents.
 */
import { z } from 'zod';
import type { CompanyProfileDoc } from './company-profiles.projection.js';
import { profileOf } from './company-profiles.projection.js';
import { ROUND_TYPES, STAGES } from './company.profile.js';

export const lastRoundSchema = z
  .strictObject({ type: z.enum(ROUND_TYPES), amount_usd: z.int().nullable(), date: z.iso.date() })
  .meta({ id: 'CompanyLastRound', description: 'The latest financing round; amount_usd null when undisclosed.' });

export const headquartersSchema = z
  .strictObject({
    country: z.string().length(2).nullable().describe('ISO 3166-1 alpha-2'),
    city: z.string().nullable(),
  })
  .meta({ id: 'CompanyHeadquarters' });

const pointSchema = z.strictObject({ date: z.iso.date(), value: z.number().min(0) }).meta({ id: 'CompanySignalPoint' });

export const signalsSchema = z
  .strictObject({
    headcount: z.array(pointSchema).describe('Employees over time.'),
    web_traffic: z.array(pointSchema).describe('Website visits per month over time.'),
    funding: z.array(pointSchema).describe('Cumulative funding raised (whole USD) over time.'),
  })
  .meta({ id: 'CompanySignals' });

export const growthSchema = z
  .strictObject({
    from_date: z.iso.date(),
    to_date: z.iso.date(),
    from_value: z.number(),
    to_value: z.number(),
    days: z.int(),
    annual_rate: z
      .number()
      .nullable()
      .describe('Compound growth per 365 days over the span (0.25 = +25 %); null when from_value is 0.'),
  })
  .nullable()
  .meta({
    id: 'CompanyGrowth',
    description:
      'Growth of a series from the point nearest one year before its latest point (at least 90 days before).',
  });

export const companyProfileSchema = z
  .strictObject({
    id: z.string().describe('cmp_… derived from the domain: stable across imports.'),
    name: z.string(),
    domain: z.string(),
    description: z.string().nullable(),
    sectors: z.array(z.string()),
    tags: z.array(z.string()),
    headquarters: headquartersSchema,
    founded_year: z.int().nullable(),
    stage: z.enum(STAGES).nullable(),
    headcount: z.int().nullable(),
    total_funding_usd: z.int().nullable().describe('Whole US dollars.'),
    last_round: lastRoundSchema.nullable(),
    investors: z.array(z.string()),
    signals: signalsSchema,
    growth: z.strictObject({ headcount: growthSchema, web_traffic: growthSchema, funding: growthSchema }),
    created_at: z.iso.datetime().describe('When the company was first imported.'),
    updated_at: z.iso.datetime().describe('When an import last changed it.'),
  })
  .meta({ id: 'CompanyProfile' });
export type CompanyProfileView = z.output<typeof companyProfileSchema>;

export function toProfileView(doc: CompanyProfileDoc): CompanyProfileView {
  return { id: doc.id, ...profileOf(doc), growth: doc.growth, created_at: doc.created_at, updated_at: doc.updated_at };
}

export const companySummarySchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    domain: z.string(),
    description: z.string().nullable().describe('At most 200 characters.'),
    sectors: z.array(z.string()),
    stage: z.enum(STAGES).nullable(),
    headquarters: headquartersSchema,
    founded_year: z.int().nullable(),
    headcount: z.int().nullable(),
    total_funding_usd: z.int().nullable(),
    last_round: lastRoundSchema.nullable(),
  })
  .meta({ id: 'CompanySummary' });

/** `{id}` of /companies/{id}: a company id (cmp_…) or its domain (example.com). Unknown → 404. */
export const companyParams = z.strictObject({
  id: z.string().min(1).max(300).describe('A company id (cmp_…) or the company’s domain (e.g. example.com).'),
});
