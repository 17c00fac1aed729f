import { z } from 'zod';
import { listPageSchema } from '#http';
import { DELIVERY_STATUSES } from '#webhooks';
import { DEAL_STAGES, FOLLOW_UP_STATUSES, WORKSPACE_PUBLIC_EVENT_TYPES } from './workspace.events.js';

/**
 * What the workspace routes answer in `data` (the views of workspace.views.ts), as zod: the
 * OpenAPI document and the MCP tools' output schemas are both derived from these.
 */
const iso = z.string().describe('ISO 8601 UTC.');

export const workspaceCompanySchema = z
  .object({
    id: z.string().describe('`wco_…`'),
    name: z.string(),
    domain: z.string(),
    stage: z.string().nullable(),
    owner: z.string().nullable(),
    source_company_id: z.string().nullable().describe('The discovery company it was added from (`cmp_…`), or null.'),
    added_at: iso,
    added_by: z.string().describe('The key that added it.'),
  })
  .meta({ id: 'WorkspaceCompany' });

export const workspaceCompanyDetailSchema = workspaceCompanySchema
  .extend({
    profile: z.record(z.string(), z.unknown()).nullable().describe('The discovery profile copied when added.'),
    score: z.record(z.string(), z.unknown()).nullable().describe('The discovery score copied when added.'),
  })
  .meta({ id: 'WorkspaceCompanyDetail' });

export const workspaceCompanyPageSchema = listPageSchema(workspaceCompanySchema).meta({ id: 'WorkspaceCompanyPage' });

export const memoSchema = z
  .object({
    company_id: z.string(),
    version: z.number().int().describe('0 before the first write; the ETag is "<version>".'),
    body: z.string().describe('Markdown.'),
    updated_at: iso.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'WorkspaceMemo' });

export const memoVersionPageSchema = listPageSchema(memoSchema).meta({ id: 'WorkspaceMemoVersionPage' });

export const dealSchema = z
  .object({
    id: z.string().describe('`deal_…`'),
    company_id: z.string(),
    name: z.string(),
    stage: z.enum(DEAL_STAGES),
    amount_usd: z.number().nullable(),
    next_step: z.string().nullable(),
    owner: z.string().nullable(),
    notes: z.string().nullable(),
    created_at: iso,
    updated_at: iso,
  })
  .meta({ id: 'WorkspaceDeal' });

export const dealPageSchema = listPageSchema(dealSchema).meta({ id: 'WorkspaceDealPage' });

export const followUpSchema = z
  .object({
    company_id: z.string(),
    key: z.string(),
    title: z.string(),
    due_at: iso,
    assignee: z.string().nullable(),
    status: z.enum(FOLLOW_UP_STATUSES),
    created_at: iso,
    updated_at: iso,
    completed_at: iso.nullable(),
  })
  .meta({ id: 'WorkspaceFollowUp' });

export const followUpPageSchema = listPageSchema(followUpSchema).meta({ id: 'WorkspaceFollowUpPage' });

export const tenantEventPageSchema = z
  .object({
    data: z.array(
      z.object({
        id: z.string().describe('Stable: the same across reads and projection rebuilds.'),
        type: z.enum(WORKSPACE_PUBLIC_EVENT_TYPES as [string, ...string[]]),
        occurred_at: iso,
        data: z.record(z.string(), z.unknown()),
      }),
    ),
    next_cursor: z.string().describe('Pass as `after` for the events after this page (also when it was empty).'),
    has_more: z.boolean(),
  })
  .meta({ id: 'TenantEventPage' });

export const subscriptionSchema = z
  .object({
    id: z.string().describe('`sub_…`'),
    url: z.string(),
    events: z.array(z.string()),
    active: z.boolean(),
    status: z.enum(['active', 'disabled']),
    created_at: iso,
    updated_at: iso,
    disabled_reason: z.string().nullable(),
    disabled_at: iso.nullable(),
    failure_count: z.number().int(),
    held_for_credits: z.number().int().describe('Deliveries waiting for credits; they go out once credits arrive.'),
    secret: z.string().optional().describe('Only in the answer of a creation that generated it: store it now.'),
  })
  .meta({ id: 'WorkspaceWebhookSubscription' });

export const subscriptionPageSchema = listPageSchema(subscriptionSchema).meta({ id: 'WorkspaceSubscriptionPage' });

export const workspaceDeliverySchema = z
  .object({
    id: z.string().describe('`del_…`; also sent as X-Service-Delivery and webhook-id.'),
    webhook_id: z.string().describe('The subscription (`sub_…`).'),
    event_id: z.string(),
    event_type: z.string(),
    state: z.enum(DELIVERY_STATUSES).describe('`held`: waiting for credits.'),
    created_at: iso,
    attempts: z.array(
      z.object({
        number: z.number().int(),
        manual: z.boolean(),
        attempted_at: iso,
        duration_ms: z.number(),
        status_code: z.number().int().nullable(),
        error: z.string().nullable(),
        response_body: z.string().nullable(),
        outcome: z.enum(['succeeded', 'failed']),
      }),
    ),
    next_attempt_at: iso.nullable(),
    redelivery_pending: z.boolean(),
  })
  .meta({ id: 'WorkspaceWebhookDelivery' });

export const workspaceDeliveryPageSchema = listPageSchema(workspaceDeliverySchema).meta({
  id: 'WorkspaceWebhookDeliveryPage',
});
