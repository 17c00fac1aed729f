import { z } from 'zod';
import { OBJECTIVE_VALUES, PACK_IDS } from '#agent-contract';

export const topupCheckoutBody = z.object({
  pack_id: z.enum(PACK_IDS),
  objective: z.enum(OBJECTIVE_VALUES).optional(),
  source: z.string().trim().min(1).max(200).optional(),
});
export type TopupCheckoutBody = z.output<typeof topupCheckoutBody>;
