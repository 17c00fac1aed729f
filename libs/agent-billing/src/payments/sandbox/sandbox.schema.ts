import { z } from 'zod';

export const sessionParams = z.object({
  id: z.string().regex(/^cs_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a checkout session id'),
});
