import { z } from 'zod';
import { companySummarySchema } from '../../companies/company.views.js';
import { STAGES } from '../../companies/company.profile.js';
import { countryCode } from '../../companies/countries.js';
import { SECTORS } from '../../scoring/scoring-model.js';

export const DISCOVERY_DEFAULT_LIMIT = 10;
export const DISCOVERY_MAX_LIMIT = 100;

const slugify = (s: unknown) =>
  typeof s === 'string'
    ? s
        .trim()
        .toLowerCase()
        .replace(/[\s_]+/g, '-')
    : s;

/**
 * A filter of published values: the enum is in the OpenAPI document and the tool's input schema
 * (a preprocess, unlike a transform, keeps it there), and a value outside it is a free 400 naming
 * them, never an empty paid page.
 */
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess(slugify, z.enum(values, { message: `expected one of ${values.join(', ')}` }));

/** GET /api/v1/discovery/top query (strict: unknown parameters are 400). */
export const topCompaniesQuerySchema = z.strictObject({
  limit: z.coerce
    .number('expected an integer')
    .int('expected an integer')
    .min(1, 'expected at least 1')
    .max(DISCOVERY_MAX_LIMIT, `expected at most ${DISCOVERY_MAX_LIMIT}`)
    .default(DISCOVERY_DEFAULT_LIMIT)
    .describe(`Items per page: default ${DISCOVERY_DEFAULT_LIMIT}, at most ${DISCOVERY_MAX_LIMIT}.`),
  cursor: z.string().min(1).max(2048).optional().describe('next_cursor of the previous page (same filters).'),
  sector: oneOf(SECTORS).optional().describe('Only companies with this sector (the scoring model’s sectors).'),
  stage: oneOf(STAGES).optional().describe('Only companies at this stage.'),
  country: countryCode('US')
    .optional()
    .describe('Only companies headquartered in this country (ISO 3166-1 alpha-2, e.g. US, GB).'),
});
export type TopCompaniesQueryParams = z.output<typeof topCompaniesQuerySchema>;

export const discoveryItemSchema = z
  .strictObject({
    rank: z.int().min(1).describe('Position in this ranking (with these filters), from 1.'),
    score: z.number().min(0).max(100),
    company: companySummarySchema,
  })
  .meta({ id: 'DiscoveryItem' });

export const discoveryPageSchema = z
  .strictObject({
    model_version: z.string(),
    filters: z.strictObject({
      sector: z.string().nullable(),
      stage: z.enum(STAGES).nullable(),
      country: z.string().nullable(),
    }),
    data: z.array(discoveryItemSchema),
    has_more: z.boolean(),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as ?cursor (with the same filters) for the next page; null on the last page.'),
  })
  .meta({ id: 'DiscoveryPage' });
export type DiscoveryPage = z.output<typeof discoveryPageSchema>;
