import { z } from 'zod';
import { OBJECTIVE_VALUES, PACK_IDS } from '#agent-contract';

const text = (max: number) => z.string().trim().min(1).max(max);

export const payQuery = z.object({
  objective: z.enum(OBJECTIVE_VALUES).optional().describe('Purchase objective; picks the pack when pack_id is absent.'),
  source: text(200).optional().describe('Where the agent came from (attribution), e.g. a registry or a link.'),
});

/** Who opens the account: the optional fields pay and signup both take. */
const applicantFields = {
  contact_email: z.email().max(320).optional(),
  agent_name: text(200).optional(),
  use_case: text(2000).optional(),
};

export const payBody = z
  .strictObject({
    ...applicantFields,
    objective: z.enum(OBJECTIVE_VALUES).optional(),
    pack_id: z
      .enum(PACK_IDS)
      .optional()
      .describe('Pack of the starter checkout; default: the objective’s pack, else pack_29.'),
    source_ref: text(500).optional(),
  })
  .optional();

export const payCheckQuery = payQuery.extend({ pack_id: z.enum(PACK_IDS).optional() });

export const signupQuery = z.object({ source_ref: text(500).optional() });

export const signupBody = z.strictObject({ source_ref: text(500).optional(), ...applicantFields }).optional();

const money = z.number().describe('US dollars.');

export const packSummarySchema = z.object({
  pack_id: z.enum(PACK_IDS),
  name: z.string(),
  amount_usd: money,
  credits_usd: money,
});

export const keyIssuanceSchema = z
  .object({
    account_id: z.string().describe('The new agent account (`acct_…`).'),
    key: z.object({
      id: z.string().describe('Key id (`key_…`): DELETE /api/v1/agents/keys/{id} revokes it.'),
      api_key: z.string().describe('The key value, shown once: send it as x-api-key (or Authorization: Bearer).'),
      prefix: z.string(),
      created_at: z.string(),
    }),
    starter_checkout: z.object({
      url: z.string().describe('Hosted checkout for the pack, bound to this key: open it to pay.'),
      session_id: z.string(),
      pack_id: z.enum(PACK_IDS),
      amount_usd: money,
      credits_usd: money,
      provider: z.enum(['stripe', 'sandbox']),
      expires_at: z.string().nullable(),
    }),
    pack: packSummarySchema,
    objective: z.string(),
    balance_usd: money,
    next_actions: z.array(
      z.object({ action: z.string(), method: z.string(), url: z.string(), description: z.string() }),
    ),
    payment_flow: z.array(z.string()),
  })
  .meta({ id: 'AgentKeyIssuance' });

export type KeyIssuance = z.output<typeof keyIssuanceSchema>;

/** GET /agents/pay: what a POST with these parameters would do (the check call). */
export const payCheckSchema = z
  .object({
    version: z.literal('v1'),
    as_of: z.string(),
    data: z.object({
      check: z.literal(true),
      creates_nothing: z.literal(true),
      objective: z.string(),
      would_create: z.object({
        account: z.literal(true),
        key: z.object({ surface: z.literal('agent'), shown_once: z.literal(true), auth_headers: z.array(z.string()) }),
        starter_checkout: packSummarySchema.extend({ bound_to_key: z.boolean() }),
        balance_usd: z.number(),
      }),
      request: z.object({
        method: z.literal('POST'),
        url: z.string(),
        headers: z.record(z.string(), z.string()),
        body_template: z.record(z.string(), z.string()),
      }),
      alternatives: z.record(z.string(), z.looseObject({ method: z.string(), url: z.string() })),
      payment_flow: z.array(z.string()),
    }),
  })
  .meta({ id: 'AgentPayCheck' });

export type PayCheck = z.output<typeof payCheckSchema>;
