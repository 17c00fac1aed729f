import { z } from 'zod';

const plan = z
  .enum(['enterprise', 'pilot', 'pilot_ended'])
  .describe('enterprise (for good), pilot (running), pilot_ended (read-only until the enterprise pack).');

/** An account's workspace as /agents/status and the checkout success page show it (ADR 0078). */
export const accountWorkspaceSchema = z
  .object({
    tenant_id: z.string(),
    name: z.string().nullable(),
    plan,
    access: z.enum(['read_write', 'read_only']),
    pilot: z
      .object({ days: z.number(), started_at: z.string(), ends_at: z.string(), ended_at: z.string().nullable() })
      .nullable(),
    enterprise_since: z.string().nullable(),
    companies_url: z.string().describe('GET it with any key of the account.'),
    note: z.string().describe('What the agent can do now, in words.'),
  })
  .meta({ id: 'AccountWorkspace' });

/** The workspace a paid pack opened, as the payment's answer names it (ADR 0078). */
export const provisionedWorkspaceSchema = z
  .object({
    tenant_id: z.string(),
    plan,
    pilot_ends_at: z.string().nullable().describe('The pilot’s end, when the tenant is (or was) on one.'),
    created: z
      .boolean()
      .describe('False when the account held the tenant already (a repeated delivery, a second purchase).'),
  })
  .meta({ id: 'ProvisionedWorkspace' });
