import { z } from 'zod';
import { OBJECTIVE_VALUES } from '../../catalog/objectives.js';
import { PACK_IDS } from '../../catalog/packs.js';

export const checkoutLinkQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  pack_id: z.enum(PACK_IDS).optional().describe('Default: the objective’s pack, else pack_29.'),
  source: z.string().trim().min(1).max(200).optional(),
  key_id: z
    .string()
    .regex(/^key_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a key id (key_…)')
    .optional()
    .describe(
      'The agent key the credits go to (its account). Without it, paying opens a new account whose key the success page shows once.',
    ),
});
export type CheckoutLinkParams = z.output<typeof checkoutLinkQuery>;

export interface CheckoutLink {
  url: string;
  session_id: string;
  provider: string;
  pack_id: string;
  amount_usd: number;
  credits_usd: number;
  key_id: string | null;
  bound: boolean;
  expires_at: string | null;
}
