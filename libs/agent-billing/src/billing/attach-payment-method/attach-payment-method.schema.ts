import { z } from 'zod';

export const attachBody = z.object({
  payment_method_id: z.string().trim().min(3).max(255),
  setup_intent_id: z
    .string()
    .trim()
    .min(3)
    .max(255)
    .optional()
    .describe('The confirmed setup intent (checked when given).'),
});
export type AttachBody = z.output<typeof attachBody>;
