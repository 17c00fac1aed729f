import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext, ProjectionDefinition } from '#projections';
import { PUBLIC_EVENT_TYPES, WORKSPACE_EVENT_TYPES, type WorkspaceEvent } from './workspace.events.js';

export const WORKSPACE_PROJECTION = 'workspace';
export const TENANTS_COLLECTION = 'ws_tenants';
export const COMPANIES_COLLECTION = 'ws_companies';
export const MEMOS_COLLECTION = 'ws_memos';
export const DEALS_COLLECTION = 'ws_deals';
export const FOLLOW_UPS_COLLECTION = 'ws_followups';
export const EVENTS_COLLECTION = 'ws_events';

export interface TenantDoc {
  [key: string]: unknown;
  id: string;
  name: string;
  owner_account_id: string;
  created_at: string;
  /**
   * The pilot as recorded: `running` until WorkspacePilotEnded (the sweeper finds the due ones by
   * `pilot_ends_at`), `ended`, or `lifted` by enterprise access; absent for a tenant with no pilot.
   */
  pilot_state?: 'running' | 'ended' | 'lifted';
  pilot_ends_at?: string;
  pilot_ended_at?: string | null;
  enterprise_at?: string | null;
}

export interface WorkspaceCompanyDoc {
  [key: string]: unknown;
  id: string;
  tenant_id: string;
  source_company_id: string | null;
  name: string;
  /** Lower-case name: `q` matches its start. */
  name_key: string;
  domain: string;
  stage: string | null;
  owner: string | null;
  /** The discovery profile and score as copied when added, JSON text (free-form, ADR 0057). */
  snapshot_json: string;
  added_by: string;
  added_at: string;
}

export interface MemoDoc {
  [key: string]: unknown;
  id: string;
  tenant_id: string;
  company_id: string;
  version: number;
  body: string;
  updated_at: string;
  updated_by: string;
}

export interface DealDoc {
  [key: string]: unknown;
  id: string;
  tenant_id: string;
  company_id: string;
  name: string;
  stage: string;
  amount_usd: number | null;
  next_step: string | null;
  owner: string | null;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface FollowUpDoc {
  [key: string]: unknown;
  id: string;
  tenant_id: string;
  company_id: string;
  key: string;
  title: string;
  due_at: string;
  assignee: string | null;
  status: string;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** One event of the tenant event stream (GET /workspace/events). */
export interface TenantEventDoc {
  [key: string]: unknown;
  /**
   * `{tenant}:{position, 16 digits}`: a tenant's events sit next to each other in the store's key
   * order, so a page is one range read of the key (`tenantEventRange`), with no index and no
   * lookup per event (docs/performance.md, ADR 0089).
   */
  id: string;
  /** The stored event's id, the public id: stable across rebuilds. */
  event_id: string;
  tenant_id: string;
  position: number;
  type: string;
  occurred_at: string;
  /** As the page shows it: stored as an object, so a page is sent without a parse per event. */
  data: Record<string, unknown>;
}

export const tenantEventDocId = (tenantId: string, position: number) =>
  `${tenantId}:${String(position).padStart(16, '0')}`;

/**
 * The ids of a tenant's events after `position`: `;` follows `:`, and a tenant id holds neither,
 * so the range holds this tenant's events and no other's.
 */
export const tenantEventRange = (tenantId: string, position: number) => ({
  $gt: tenantEventDocId(tenantId, position),
  $lt: `${tenantId};`,
});

export const followUpDocId = (companyId: string, key: string) => `${companyId}:${key}`;

/** The data of a stored event as the tenant stream shows it (tenant_id is implied). */
export function publicData(event: WorkspaceEvent): Record<string, unknown> {
  const { tenant_id: _tenant, ...rest } = event.data as Record<string, unknown> & { tenant_id: string };
  if (event.type === 'WorkspaceCompanyAdded') {
    const { snapshot: _snapshot, ...company } = rest;
    return company;
  }
  return rest;
}

export function occurredAt(event: WorkspaceEvent): string {
  const d = event.data as Record<string, unknown>;
  for (const field of ['added_at', 'updated_at', 'created_at', 'changed_at', 'completed_at'])
    if (typeof d[field] === 'string') return d[field];
  return '';
}

/** Read models of the workspace (lists, current memo) and the per-tenant event stream. */
export const workspaceProjection: ProjectionDefinition = {
  name: WORKSPACE_PROJECTION,
  // 2: tenant events keyed by tenant and position; 3: their data stored as an object, no index.
  version: 3,
  eventTypes: WORKSPACE_EVENT_TYPES,
  collections: [
    {
      name: TENANTS_COLLECTION,
      indexes: [
        { fields: [['owner_account_id', 1]] },
        {
          fields: [
            ['pilot_state', 1],
            ['pilot_ends_at', 1],
          ],
        },
      ],
    },
    {
      name: COMPANIES_COLLECTION,
      indexes: [
        {
          fields: [
            ['tenant_id', 1],
            ['added_at', -1],
          ],
        },
        {
          fields: [
            ['tenant_id', 1],
            ['name_key', 1],
          ],
        },
      ],
    },
    { name: MEMOS_COLLECTION },
    {
      name: DEALS_COLLECTION,
      indexes: [
        {
          fields: [
            ['tenant_id', 1],
            ['created_at', -1],
          ],
        },
      ],
    },
    {
      name: FOLLOW_UPS_COLLECTION,
      indexes: [
        {
          fields: [
            ['tenant_id', 1],
            ['company_id', 1],
            ['due_at', 1],
          ],
        },
      ],
    },
    // Pages are read by key range (tenantEventRange): no index to keep up.
    { name: EVENTS_COLLECTION },
  ],
  async handle(raw: RecordedEvent, ctx) {
    const event = raw as unknown as WorkspaceEvent;
    await apply(event, ctx);
    const type = PUBLIC_EVENT_TYPES[event.type];
    if (type !== null) {
      const doc: TenantEventDoc = {
        id: tenantEventDocId(event.data.tenant_id, raw.position),
        event_id: raw.id,
        tenant_id: event.data.tenant_id,
        position: raw.position,
        type,
        occurred_at: occurredAt(event),
        data: publicData(event),
      };
      ctx.upsert(EVENTS_COLLECTION, doc);
    }
  },
};

/** The tenant document after a plan event (applying one twice gives the same document). */
function tenantPlan(
  doc: TenantDoc,
  event: Extract<
    WorkspaceEvent,
    { type: 'WorkspacePilotStarted' | 'WorkspacePilotEnded' | 'WorkspaceEnterpriseActivated' }
  >,
): TenantDoc {
  switch (event.type) {
    case 'WorkspacePilotStarted':
      return {
        ...doc,
        pilot_state: doc.enterprise_at ? 'lifted' : 'running',
        pilot_ends_at: event.data.ends_at,
        pilot_ended_at: null,
      };
    case 'WorkspacePilotEnded':
      return { ...doc, pilot_state: 'ended', pilot_ended_at: event.data.ended_at };
    case 'WorkspaceEnterpriseActivated':
      return {
        ...doc,
        enterprise_at: event.data.activated_at,
        ...(doc.pilot_state ? { pilot_state: 'lifted' as const } : {}),
      };
  }
}

async function apply(event: WorkspaceEvent, ctx: ProjectionContext): Promise<void> {
  switch (event.type) {
    case 'WorkspaceTenantCreated': {
      const d = event.data;
      const doc: TenantDoc = {
        id: d.tenant_id,
        name: d.name,
        owner_account_id: d.owner_account_id,
        created_at: d.created_at,
      };
      ctx.upsert(TENANTS_COLLECTION, doc);
      return;
    }
    case 'WorkspacePilotStarted':
    case 'WorkspacePilotEnded':
    case 'WorkspaceEnterpriseActivated': {
      const existing = await ctx.get<TenantDoc>(TENANTS_COLLECTION, event.data.tenant_id);
      if (!existing) throw new Error(`${event.type} for ${event.data.tenant_id} before its WorkspaceTenantCreated`);
      ctx.upsert(TENANTS_COLLECTION, tenantPlan(existing, event));
      return;
    }
    case 'WorkspaceCompanyAdded': {
      const d = event.data;
      const doc: WorkspaceCompanyDoc = {
        id: d.company_id,
        tenant_id: d.tenant_id,
        source_company_id: d.source_company_id,
        name: d.name,
        name_key: d.name.toLowerCase(),
        domain: d.domain,
        stage: d.stage,
        owner: d.owner,
        snapshot_json: JSON.stringify(d.snapshot),
        added_by: d.added_by,
        added_at: d.added_at,
      };
      ctx.upsert(COMPANIES_COLLECTION, doc);
      return;
    }
    case 'WorkspaceMemoUpdated': {
      const d = event.data;
      const doc: MemoDoc = {
        id: d.company_id,
        tenant_id: d.tenant_id,
        company_id: d.company_id,
        version: d.version,
        body: d.body,
        updated_at: d.updated_at,
        updated_by: d.updated_by,
      };
      ctx.upsert(MEMOS_COLLECTION, doc);
      return;
    }
    case 'WorkspaceDealCreated': {
      const d = event.data;
      const doc: DealDoc = {
        id: d.deal_id,
        tenant_id: d.tenant_id,
        company_id: d.company_id,
        name: d.name,
        stage: d.stage,
        amount_usd: d.amount_usd,
        next_step: null,
        owner: d.owner,
        notes: null,
        created_at: d.created_at,
        updated_at: d.created_at,
      };
      ctx.upsert(DEALS_COLLECTION, doc);
      return;
    }
    case 'WorkspaceDealUpdated':
    case 'WorkspaceDealStageChanged': {
      const d = event.data;
      const existing = await ctx.get<DealDoc>(DEALS_COLLECTION, d.deal_id);
      if (!existing) throw new Error(`${event.type} for ${d.deal_id} before its WorkspaceDealCreated`);
      const next: DealDoc =
        event.type === 'WorkspaceDealUpdated'
          ? { ...existing, ...event.data.changes, updated_at: event.data.updated_at }
          : { ...existing, stage: event.data.to, updated_at: event.data.changed_at };
      ctx.upsert(DEALS_COLLECTION, next);
      return;
    }
    case 'WorkspaceFollowUpUpserted': {
      const d = event.data;
      const id = followUpDocId(d.company_id, d.key);
      const existing = await ctx.get<FollowUpDoc>(FOLLOW_UPS_COLLECTION, id);
      const doc: FollowUpDoc = {
        id,
        tenant_id: d.tenant_id,
        company_id: d.company_id,
        key: d.key,
        title: d.title,
        due_at: d.due_at,
        assignee: d.assignee,
        status: d.status,
        created_at: existing?.created_at ?? d.updated_at,
        updated_at: d.updated_at,
        completed_at: d.status === 'done' ? (existing?.completed_at ?? d.updated_at) : null,
      };
      ctx.upsert(FOLLOW_UPS_COLLECTION, doc);
      return;
    }
    case 'WorkspaceFollowUpCompleted':
      return;
  }
}
