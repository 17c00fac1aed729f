import { z } from 'zod';
import { FREE_FORM_JSON_LIMITS, jsonLimitViolation } from '#kernel';
import { AGENT_TEMPLATE_IDS, AGENT_TEMPLATES, MAX_AGENT_CONFIG_BYTES } from './agent-templates.js';
import type { AgentDoc } from './agents.projection.js';

const templateList = AGENT_TEMPLATES.map((t) => `\`${t.id}\` (${t.description.replace(/\.$/, '')})`).join('; ');

export const agentTemplateSchema = z.enum(AGENT_TEMPLATE_IDS).describe(`What the agent does: ${templateList}.`);

export const agentConfigSchema = z
  .record(z.string(), z.unknown())
  .superRefine((config, ctx) => {
    const violation = jsonLimitViolation(config);
    if (violation) ctx.addIssue({ code: 'custom', message: `config is ${violation}` });
  })
  .describe(
    `Free-form settings the runner reads (a JSON object, at most ${MAX_AGENT_CONFIG_BYTES} bytes, ` +
      `${FREE_FORM_JSON_LIMITS.maxDepth} levels deep and ${FREE_FORM_JSON_LIMITS.maxKeys} keys).`,
  );

export const agentViewSchema = z
  .object({
    id: z.string().describe('Agent id (`agt_…`).'),
    name: z.string(),
    template: agentTemplateSchema,
    config: agentConfigSchema,
    created_at: z.string().describe('ISO 8601 UTC.'),
    updated_at: z.string().describe('ISO 8601 UTC.'),
  })
  .meta({ id: 'Agent' });
export type AgentView = z.output<typeof agentViewSchema>;

export function toAgentView(doc: AgentDoc): AgentView {
  return {
    id: doc.id,
    name: doc.name,
    template: doc.template,
    config: JSON.parse(doc.config_json) as Record<string, unknown>,
    created_at: doc.created_at,
    updated_at: doc.updated_at,
  };
}

export const agentIdParams = z.object({ id: z.string().min(1).max(64).describe('Agent id (`agt_…`).') });
