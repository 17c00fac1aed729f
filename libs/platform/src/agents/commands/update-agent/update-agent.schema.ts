import { z } from 'zod';
import { agentConfigSchema } from '../../agent.view.js';

export const updateAgentBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    config: agentConfigSchema.optional().describe('Replaces the whole config object.'),
  })
  .refine((b) => b.name !== undefined || b.config !== undefined, { message: 'give name or config' })
  .meta({ id: 'UpdateAgentRequest' });
