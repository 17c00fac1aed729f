import { z } from 'zod';
import { agentConfigSchema, agentTemplateSchema } from '../../agent.view.js';

export const createAgentBody = z
  .object({
    name: z.string().trim().min(1).max(100).describe('Display name.'),
    template: agentTemplateSchema,
    config: agentConfigSchema.default({}),
  })
  .meta({ id: 'CreateAgentRequest' });
