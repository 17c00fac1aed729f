import { z } from 'zod';
import { envelopeSchema } from '#agent-contract';
import { CREDITS_EVENT_TYPES } from '../../credits/credits.events.js';

export const LEDGER_DEFAULT_LIMIT = 100;
export const LEDGER_MAX_LIMIT = 1000;

export const ledgerQuery = z
  .object({
    after: z
      .string()
      .max(200)
      .optional()
      .describe('The next_cursor of the previous page; omit to read from the first entry.'),
    limit: z.coerce.number().int().min(1).max(LEDGER_MAX_LIMIT).default(LEDGER_DEFAULT_LIMIT),
  })
  .strict();
export type LedgerQuery = z.output<typeof ledgerQuery>;

const iso = z.string().describe('ISO 8601 UTC.');

/** An entry: ledgerEntryView's fields plus its event id and the balance right after it. */
export const ledgerEntrySchema = z
  .looseObject({
    id: z.string().describe('The stored event’s id: stable, unique.'),
    sequence: z.number().int().min(0).describe('Its place in the account’s ledger, from 0.'),
    type: z.enum(CREDITS_EVENT_TYPES),
    meter: z.string().nullable().describe('The meter of a charge or of a settled charge; null otherwise.'),
    request_id: z.string().nullable().describe('The request a charge was made for; null otherwise.'),
    amount_usd: z
      .number()
      .describe('Negative for a charge, positive for a purchase, a grant or a refund, 0 for autopay bookkeeping.'),
    balance_after_usd: z.number().describe('The balance right after this entry.'),
    recorded_at: iso.describe('When the ledger recorded it.'),
  })
  .meta({ id: 'LedgerEntry' });

export const ledgerPageSchema = z
  .strictObject({
    data: z.array(ledgerEntrySchema),
    next_cursor: z.string().describe('Pass as `after` for the entries after this page (kept when the page is empty).'),
    has_more: z.boolean(),
  })
  .meta({ id: 'LedgerPage' });

export const ledgerResponseSchema = envelopeSchema(ledgerPageSchema, 'LedgerPageResponse');
export type LedgerPage = z.output<typeof ledgerPageSchema>;
