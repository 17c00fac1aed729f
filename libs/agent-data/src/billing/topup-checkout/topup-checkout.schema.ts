import { z } from 'zod';
import { OBJECTIVE_VALUES } from '../../catalog/objectives.js';
import { PACK_IDS } from '../../catalog/packs.js';

export const topupCheckoutBody = z.object({
  pack_id: z.enum(PACK_IDS),
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  source: z.string().trim().min(1).max(200).optional(),
});
export type TopupCheckoutBody = z.output<typeof topupCheckoutBody>;
