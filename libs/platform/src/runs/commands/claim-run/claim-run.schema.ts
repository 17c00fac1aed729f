import { z } from 'zod';
import { agentTemplateSchema } from '../../../agents/agent.view.js';

/** Which queued runs this runner takes; every field narrows, none means any run of the account. */
export const claimNextRunBody = z
  .strictObject({
    agent_id: z.string().min(1).max(64).optional().describe('Only runs of this agent.'),
    repository_id: z.string().min(1).max(64).optional().describe('Only runs against this repository.'),
    template: agentTemplateSchema
      .optional()
      .describe('Only runs of agents made from this template (a runner that can execute only some).'),
  })
  .optional()
  .meta({ id: 'ClaimRunRequest' });
