import { z } from 'zod';
import { PACK_IDS } from '#agent-contract';

export const topupChargeBody = z.object({
  payment_method_id: z.string().trim().min(3).max(255),
  pack_id: z.enum(PACK_IDS),
  save_for_autopay: z
    .boolean()
    .default(false)
    .describe('true: keep this method and pack for automatic recharge (D19).'),
});
export type TopupChargeBody = z.output<typeof topupChargeBody>;
