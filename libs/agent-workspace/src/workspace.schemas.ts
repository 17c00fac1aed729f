import { z } from 'zod';
import { listQuerySchema } from '#http';
import { DEAL_STAGES, FOLLOW_UP_STATUSES, WORKSPACE_PUBLIC_EVENT_TYPES } from './workspace.events.js';

/** Request schemas of the workspace routes (unknown fields are 400: every object is strict). */
const text = (max: number) => z.string().trim().min(1).max(max);
const domain = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    /^(?=.{3,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'expected a domain such as example.com',
  );

export const workspaceCompanyParams = z.object({
  id: z.string().regex(/^wco_[0-9a-f]{24}$/, 'expected a workspace company id (wco_…)'),
});
export const dealParams = z.object({
  id: z.string().regex(/^deal_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a deal id (deal_…)'),
});
export const followUpParams = workspaceCompanyParams.extend({
  key: z.string().regex(/^[A-Za-z0-9._~-]{1,64}$/, 'expected 1 to 64 characters of A-Z a-z 0-9 . _ ~ -'),
});

export const listCompaniesQuery = listQuerySchema
  .extend({
    stage: text(60)
      .optional()
      .describe('Companies at this stage (the stage copied from the profile or given when added).'),
    owner: text(100).optional(),
    q: text(100).optional().describe('Companies whose name starts with this text (case-insensitive).'),
  })
  .strict();

export const addCompanyBody = z
  .object({
    company_id: z
      .string()
      .regex(/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/, 'expected a company id of the discovery universe (cmp_…)')
      .optional()
      .describe('Add a company of the discovery universe: its profile and score are copied.'),
    name: text(200).optional().describe('With domain: add a company that is not in the universe.'),
    domain: domain.optional(),
    stage: text(60).optional(),
    owner: text(100).optional(),
  })
  .strict()
  .refine((b) => (b.company_id ? !b.name && !b.domain : !!b.name && !!b.domain), {
    message: 'send company_id, or name and domain (not both)',
    path: ['company_id'],
  });
export type AddCompanyBody = z.output<typeof addCompanyBody>;

export const MAX_MEMO_BYTES = 100_000;
export const updateMemoBody = z
  .object({
    body: z
      .string()
      .max(MAX_MEMO_BYTES)
      .refine((s) => Buffer.byteLength(s) <= MAX_MEMO_BYTES, `at most ${MAX_MEMO_BYTES} bytes`)
      .describe('The memo, markdown.'),
  })
  .strict();

export const listDealsQuery = listQuerySchema.extend({ stage: z.enum(DEAL_STAGES).optional() }).strict();

const amount = z.number().nonnegative().max(1e13).multipleOf(0.01);
export const createDealBody = z
  .object({
    company_id: workspaceCompanyParams.shape.id,
    name: text(200),
    stage: z.enum(DEAL_STAGES).default('sourced'),
    amount_usd: amount.optional(),
    owner: text(100).optional(),
  })
  .strict();
export type CreateDealBody = z.output<typeof createDealBody>;

export const updateDealBody = z
  .object({
    name: text(200).optional(),
    stage: z.enum(DEAL_STAGES).optional(),
    amount_usd: amount.nullable().optional(),
    next_step: text(500).nullable().optional(),
    owner: text(100).nullable().optional(),
    notes: z.string().max(10_000).nullable().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'send at least one field' });
export type UpdateDealBody = z.output<typeof updateDealBody>;

export const upsertFollowUpBody = z
  .object({
    title: text(200),
    due_at: z.string().datetime({ offset: true }).describe('ISO 8601 date-time.'),
    assignee: text(100).nullable().optional(),
    status: z.enum(FOLLOW_UP_STATUSES).default('open'),
  })
  .strict();
export type UpsertFollowUpBody = z.output<typeof upsertFollowUpBody>;

/** POST …/follow-ups (the spec's path): the PUT's fields, and the client's key if it wants one. */
export const createFollowUpBody = upsertFollowUpBody
  .extend({
    key: followUpParams.shape.key
      .optional()
      .describe(
        'Your key for the follow-up: sent again, it updates the same follow-up (idempotent). Without it the service makes one (fu_…) and answers it in `key`.',
      ),
  })
  .strict();
export type CreateFollowUpBody = z.output<typeof createFollowUpBody>;

/** limit and cursor only (follow-ups, memo versions). */
export const pageQuery = listQuerySchema.strict();

export const MAX_WAIT_SECONDS = 30;
export const listEventsQuery = z
  .object({
    after: z
      .string()
      .max(200)
      .optional()
      .describe('The next_cursor of the previous page; omit to read from the start.'),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    types: z
      .string()
      .max(1000)
      .optional()
      .transform((s, ctx) => {
        if (s === undefined) return undefined;
        const types = s
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        const unknown = types.filter((t) => !WORKSPACE_PUBLIC_EVENT_TYPES.includes(t));
        if (unknown.length) {
          ctx.addIssue({ code: 'custom', message: `unknown event types: ${unknown.join(', ')}` });
          return z.NEVER;
        }
        return types;
      })
      .describe(`Comma-separated event types: ${WORKSPACE_PUBLIC_EVENT_TYPES.join(', ')}.`),
    wait_seconds: z.coerce
      .number()
      .int()
      .min(0)
      .max(MAX_WAIT_SECONDS)
      .default(0)
      .describe('When nothing is new, wait up to this long for an event before answering (long poll).'),
  })
  .strict();
export type ListEventsQuery = z.output<typeof listEventsQuery>;
