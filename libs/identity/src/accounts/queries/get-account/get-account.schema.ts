import { z } from 'zod';
import { PLANS } from '../../account.events.js';

export const accountViewSchema = z
  .object({
    id: z.string().describe('Account id (`acct_…`).'),
    name: z.string(),
    plan: z.enum(PLANS),
    limits: z
      .object({
        per_minute: z.number().int().describe('Requests per 60 s window.'),
        per_hour: z.number().int().describe('Requests per 3600 s window.'),
      })
      .describe('Rate limits of the plan (D7), shared by all keys of the account.'),
    created_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'Account' });

export type AccountView = z.output<typeof accountViewSchema>;
