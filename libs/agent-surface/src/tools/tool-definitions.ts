// Over 200 lines on purpose: the thirteen tools as one table (schemas, hints, the operation each
// runs), read as a whole beside the catalogue's MCP_TOOLS rows. The MCP endpoint serves from it
// and every document that publishes tools renders from it (published-tools.ts), so a tool's
// arguments are written here once.
import type { CommandBus, QueryBus } from '@nestjs/cqrs';
import { z } from 'zod';
import { ListDeliveriesQuery } from '#webhooks';
import { issuance, keyIssuanceSchema, OpenAgentAccountCommand, signupBody, type TenantCaller } from '#agent-billing';
import { MCP_TOOLS, type McpTool, STARTER_PACK_ID } from '#agent-contract';
import {
  companyParams,
  companyProfileSchema,
  companyScoreSchema,
  discoveryPageSchema,
  GetCompanyProfileQuery,
  GetCompanyScoreQuery,
  TopCompaniesQuery,
  topCompaniesQuerySchema,
} from '#agent-ventures';
import {
  createSubscriptionBody,
  CreateSubscriptionCommand,
  dealPageSchema,
  dealParams,
  dealSchema,
  followUpParams,
  followUpSchema,
  GetMemoQuery,
  listCompaniesQuery,
  listDealsQuery,
  ListDealsQuery,
  listEventsQuery,
  ListTenantEventsQuery,
  ListWorkspaceCompaniesQuery,
  listWorkspaceDeliveriesQuery,
  memoSchema,
  subscriptionSchema,
  tenantEventPageSchema,
  updateDealBody,
  UpdateDealCommand,
  updateMemoBody,
  UpdateMemoCommand,
  upsertFollowUpBody,
  UpsertFollowUpCommand,
  WORKSPACE_CHANNEL,
  workspaceCompanyPageSchema,
  workspaceCompanyParams,
  workspaceDeliveryPageSchema,
} from '#agent-workspace';

/** What a tool runs with: the buses, and who calls (set once the key and tenant are checked). */
export interface ToolContext {
  queries: QueryBus;
  commands: CommandBus;
  tenant: TenantCaller | null;
  baseUrl: string;
}

/**
 * A tool's arguments come from the parts of its REST twin: each part is validated with the very
 * zod schema of that route (so a 400 names the same fields), and the tool's input JSON schema is
 * the union of the parts' properties. `rename` maps a tool argument to the part's field.
 */
export interface ToolPart {
  part: 'params' | 'query' | 'body';
  schema: z.ZodType;
  rename?: Record<string, string>;
}

export interface ToolDefinition {
  /** The catalogue row (name, meter, auth, REST twin). */
  tool: McpTool;
  title: string;
  description: string;
  parts: ToolPart[];
  output: z.ZodType;
  annotations: { readOnlyHint: boolean; idempotentHint: boolean; destructiveHint: boolean; openWorldHint: boolean };
  run(args: Record<string, Record<string, unknown>>, ctx: ToolContext): Promise<unknown>;
}

const read = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
const write = (idempotent: boolean) => ({
  readOnlyHint: false,
  idempotentHint: idempotent,
  destructiveHint: false,
  openWorldHint: false,
});
const tenantOf = (ctx: ToolContext): TenantCaller => {
  if (!ctx.tenant) throw new Error('workspace tool run without a tenant');
  return ctx.tenant;
};
/** The `id` of a parsed params part (every tool with params has one). */
const idOf = (params: Record<string, unknown> | undefined): string => (params as { id: string }).id;

function catalogued(name: string): McpTool {
  const tool = MCP_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`MCP tool ${name} is not in the catalogue`);
  return tool;
}

/** The spec's thirteen tools, each the same command or query as its REST route. */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    tool: catalogued('svc.signup'),
    title: 'Sign up',
    description:
      'Get an API key and a starter checkout (pack_29) in one call; no key needed. Open starter_checkout.url to pay, then send the key as x-api-key (or Authorization: Bearer) on the MCP HTTP request to call the paid tools. The key is shown once: store it.',
    parts: [{ part: 'body', schema: signupBody.unwrap() }],
    output: keyIssuanceSchema,
    annotations: write(false),
    async run({ body }, ctx) {
      const b = (body ?? {}) as z.output<ReturnType<typeof signupBody.unwrap>>;
      const opened = await ctx.commands.execute(
        new OpenAgentAccountCommand({
          origin: 'signup',
          contactEmail: b.contact_email ?? null,
          agentName: b.agent_name ?? null,
          useCase: b.use_case ?? null,
          objective: 'starter',
          packId: STARTER_PACK_ID,
          source: null,
          sourceRef: b.source_ref ?? null,
          baseUrl: ctx.baseUrl,
        }),
      );
      return issuance(opened, ctx.baseUrl);
    },
  },
  {
    tool: catalogued('svc.get_top_discovery'),
    title: 'Top startup opportunities',
    description:
      'Companies ranked by venture score, each with rank, score and a profile summary. Filters sector, stage, country; limit (default 10, at most 100); continue with cursor = next_cursor.',
    parts: [{ part: 'query', schema: topCompaniesQuerySchema }],
    output: discoveryPageSchema,
    annotations: read,
    run: ({ query }, ctx) =>
      ctx.queries.execute(new TopCompaniesQuery(query as z.output<typeof topCompaniesQuerySchema>)),
  },
  {
    tool: catalogued('svc.get_company'),
    title: 'Company profile',
    description: 'The profile of one company by its id (cmp_…) or domain.',
    parts: [{ part: 'params', schema: companyParams }],
    output: companyProfileSchema,
    annotations: read,
    run: ({ params }, ctx) => ctx.queries.execute(new GetCompanyProfileQuery(idOf(params))),
  },
  {
    tool: catalogued('svc.get_company_score'),
    title: 'Company score',
    description: 'The score (0-100) of one company with its named components and the model version.',
    parts: [{ part: 'params', schema: companyParams }],
    output: companyScoreSchema,
    annotations: read,
    run: ({ params }, ctx) => ctx.queries.execute(new GetCompanyScoreQuery(idOf(params))),
  },
  {
    tool: catalogued('svc.workspace.list_companies'),
    title: 'List workspace companies',
    description: 'The companies of your tenant workspace, newest first; filters stage, owner, q (name prefix).',
    parts: [{ part: 'query', schema: listCompaniesQuery }],
    output: workspaceCompanyPageSchema,
    annotations: read,
    run: ({ query }, ctx) =>
      ctx.queries.execute(
        new ListWorkspaceCompaniesQuery(tenantOf(ctx).tenantId, query as z.output<typeof listCompaniesQuery>),
      ),
  },
  {
    tool: catalogued('svc.workspace.get_memo'),
    title: 'Read a memo',
    description:
      'The current memo (markdown) of a workspace company with its version; pass the version as if_match_version to update_memo to avoid overwriting a newer one.',
    parts: [{ part: 'params', schema: workspaceCompanyParams, rename: { company_id: 'id' } }],
    output: memoSchema,
    annotations: read,
    run: ({ params }, ctx) => ctx.queries.execute(new GetMemoQuery(tenantOf(ctx).tenantId, idOf(params))),
  },
  {
    tool: catalogued('svc.workspace.update_memo'),
    title: 'Update a memo',
    description:
      'Replace the memo of a workspace company. if_match_version is optional: with it (the version get_memo returned), a memo changed since gives MEMO_VERSION_CONFLICT (412, not charged); without it the last write wins, and every earlier version stays listed (REST GET /api/v1/workspace/companies/{id}/memo/versions).',
    parts: [
      { part: 'params', schema: workspaceCompanyParams, rename: { company_id: 'id' } },
      { part: 'body', schema: updateMemoBody },
      {
        part: 'query',
        schema: z.strictObject({
          if_match_version: z
            .number()
            .int()
            .min(0)
            .optional()
            .describe('The version you read (REST: If-Match: "<version>").'),
        }),
      },
    ],
    output: memoSchema,
    annotations: write(false),
    run: ({ params, body, query }, ctx) =>
      ctx.commands.execute(
        new UpdateMemoCommand(
          tenantOf(ctx),
          idOf(params),
          (body as z.output<typeof updateMemoBody>).body,
          (query as { if_match_version?: number } | undefined)?.if_match_version,
        ),
      ),
  },
  {
    tool: catalogued('svc.workspace.update_deal'),
    title: 'Update a deal',
    description:
      'Change a deal: stage (sourced, screening, diligence, ic, term_sheet, closed_won, closed_lost; a closed deal reopens only to screening), amount_usd, next_step, owner, notes, name.',
    parts: [
      { part: 'params', schema: dealParams, rename: { deal_id: 'id' } },
      { part: 'body', schema: updateDealBody },
    ],
    output: dealSchema,
    annotations: write(true),
    run: ({ params, body }, ctx) =>
      ctx.commands.execute(new UpdateDealCommand(tenantOf(ctx), idOf(params), body as z.output<typeof updateDealBody>)),
  },
  {
    tool: catalogued('svc.workspace.list_deals'),
    title: 'List deals',
    description: 'The deals of your workspace, newest first; filter by stage.',
    parts: [{ part: 'query', schema: listDealsQuery }],
    output: dealPageSchema,
    annotations: read,
    run: ({ query }, ctx) => {
      const q = query as z.output<typeof listDealsQuery>;
      return ctx.queries.execute(new ListDealsQuery(tenantOf(ctx).tenantId, q.stage, q.limit, q.cursor));
    },
  },
  {
    tool: catalogued('svc.workspace.upsert_followup'),
    title: 'Create or update a follow-up',
    description:
      'A follow-up of a workspace company under your own key (idempotent: the same key updates it). status done records its completion.',
    parts: [
      { part: 'params', schema: followUpParams, rename: { company_id: 'id' } },
      { part: 'body', schema: upsertFollowUpBody },
    ],
    output: followUpSchema,
    annotations: write(true),
    async run({ params, body }, ctx) {
      const p = params as z.output<typeof followUpParams>;
      const { followUp } = await ctx.commands.execute(
        new UpsertFollowUpCommand(tenantOf(ctx), p.id, p.key, body as z.output<typeof upsertFollowUpBody>),
      );
      return followUp;
    },
  },
  {
    tool: catalogued('svc.workspace.list_events'),
    title: 'Read the tenant event stream',
    description:
      'Events of your workspace, oldest first, after a cursor (omit: from the start). wait_seconds (at most 30) waits for the next event when nothing is new, so polling in a loop does not pay for empty pages.',
    parts: [{ part: 'query', schema: listEventsQuery }],
    output: tenantEventPageSchema,
    annotations: read,
    run: ({ query }, ctx) => {
      const q = query as z.output<typeof listEventsQuery>;
      return ctx.queries.execute(
        new ListTenantEventsQuery(tenantOf(ctx).tenantId, q.after, q.limit, q.types, q.wait_seconds),
      );
    },
  },
  {
    tool: catalogued('svc.workspace.create_webhook'),
    title: 'Create a webhook subscription',
    description:
      'Push workspace events to your URL, signed (X-Service-Signature and Standard Webhooks headers). Without secret one is generated and returned once. Each successful push costs deliver.workspace.webhook; without credits deliveries are held and go out once credits arrive.',
    parts: [{ part: 'body', schema: createSubscriptionBody }],
    output: subscriptionSchema,
    annotations: write(false),
    run: ({ body }, ctx) =>
      ctx.commands.execute(
        new CreateSubscriptionCommand(tenantOf(ctx), body as z.output<typeof createSubscriptionBody>),
      ),
  },
  {
    tool: catalogued('svc.workspace.list_webhook_deliveries'),
    title: 'List webhook deliveries',
    description:
      'Deliveries of your subscriptions, newest first, with their attempts; state held means waiting for credits. subscription_id narrows to one.',
    parts: [{ part: 'query', schema: listWorkspaceDeliveriesQuery }],
    output: workspaceDeliveryPageSchema,
    annotations: read,
    run: ({ query }, ctx) => {
      const q = query as z.output<typeof listWorkspaceDeliveriesQuery>;
      return ctx.queries.execute(
        new ListDeliveriesQuery(
          WORKSPACE_CHANNEL,
          { kind: 'tenant', id: tenantOf(ctx).tenantId },
          q.subscription_id ?? null,
          q.limit,
          q.cursor,
        ),
      );
    },
  },
];
