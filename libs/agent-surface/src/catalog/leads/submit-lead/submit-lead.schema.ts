import { z } from 'zod';
import { envelopeSchema, PACK_IDS } from '#agent-contract';

const objective = z.enum(['operator_pilot', 'enterprise']);

/** POST /api/v1/agents/leads. Strict: unknown fields are refused (400, nothing stored). */
export const submitLeadBody = z
  .object({
    contact_email: z.email().max(254),
    company: z.string().trim().min(1).max(200).optional(),
    agent_name: z.string().trim().min(1).max(200).optional(),
    use_case: z.string().trim().min(1).max(2000).optional(),
    objective: objective.optional(),
    pack_id: z.enum(PACK_IDS).optional(),
    expected_monthly_calls: z.int().min(0).max(1_000_000_000).optional(),
    message: z.string().trim().min(1).max(2000).optional(),
    source_ref: z.string().trim().min(1).max(200).optional(),
  })
  .meta({ id: 'AgentLeadRequest' });
export type SubmitLeadBody = z.output<typeof submitLeadBody>;

export const leadReceivedSchema = envelopeSchema(
  z.strictObject({
    lead_id: z.string(),
    status: z.literal('received'),
    received_at: z.iso.datetime(),
    objective,
    pack_id: z.enum(PACK_IDS),
    pilot_days: z.int(),
    checkout_redirect_url: z.url(),
    next_steps: z.array(z.string()).min(1),
  }),
  'AgentLeadReceived',
);
