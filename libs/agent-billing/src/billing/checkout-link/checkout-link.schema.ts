import { z } from 'zod';
import { OBJECTIVE_VALUES, PACK_IDS } from '#agent-contract';

export const checkoutLinkQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  pack_id: z.enum(PACK_IDS).optional().describe('Default: the objective’s pack, else pack_29.'),
  source: z.string().trim().min(1).max(200).optional(),
  key_id: z
    .string()
    .regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)')
    .optional()
    .describe(
      'The agent key the credits go to (its account), for a browser that does not hold the key (spec payment flow 3): key_id alone binds. An unknown or revoked key id answers 404 KEY_NOT_FOUND and opens nothing. Without key_id and key, paying opens a new account whose key the success page shows once.',
    ),
  exp: z
    .string()
    .regex(/^\d{1,12}$/, 'expected unix seconds')
    .optional()
    .describe('Expiry of a signed link.'),
  sig: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'expected the signature of a link this service issued')
    .optional()
    .describe('Signature of a link this service issued (a 402’s): checked when present, so a changed link is refused.'),
});
export type CheckoutLinkParams = z.output<typeof checkoutLinkQuery>;

export const checkoutLinkSchema = z
  .object({
    url: z.string().describe('The hosted checkout page.'),
    session_id: z.string(),
    provider: z.string(),
    pack_id: z.string(),
    amount_usd: z.number(),
    credits_usd: z.number(),
    key_id: z.string().nullable(),
    bound: z.boolean().describe('Whether paying credits an existing key’s account.'),
    expires_at: z.string().nullable(),
  })
  .meta({ id: 'CheckoutLink' });
export type CheckoutLink = z.output<typeof checkoutLinkSchema>;
