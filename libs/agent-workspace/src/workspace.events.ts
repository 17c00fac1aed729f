import { createHash } from 'node:crypto';

/**
 * Stored event types of the enterprise workspace. Names are stable: never rename.
 * Every event carries `tenant_id`: the tenant event stream is built from them (one public event
 * per stored event, its id the stored event's id, so a rebuild changes nothing).
 */
export const DEAL_STAGES = [
  'sourced',
  'screening',
  'diligence',
  'ic',
  'term_sheet',
  'closed_won',
  'closed_lost',
] as const;
export type DealStage = (typeof DEAL_STAGES)[number];

export const FOLLOW_UP_STATUSES = ['open', 'done'] as const;
export type FollowUpStatus = (typeof FOLLOW_UP_STATUSES)[number];

/** A copy of the discovery universe's profile and score taken when the company was added. */
export interface CompanySnapshot {
  profile: Record<string, unknown> | null;
  score: Record<string, unknown> | null;
}

/** What started a pilot or made a tenant enterprise: a payment (its reference) or an operator (CLI). */
export type EntitlementSource = 'purchase' | 'lead' | 'operator';

export type WorkspaceEvent =
  | {
      type: 'WorkspaceTenantCreated';
      data: { tenant_id: string; name: string; owner_account_id: string; created_at: string };
    }
  | {
      /** The operator pilot started: full workspace until `ends_at`, read-only after (ADR 0078). */
      type: 'WorkspacePilotStarted';
      data: {
        tenant_id: string;
        days: number;
        started_at: string;
        ends_at: string;
        source: EntitlementSource;
        /** The payment reference (checkout session or payment intent) or the lead id. */
        reference: string;
      };
    }
  | {
      /** The pilot reached its end with no enterprise purchase: the workspace is read-only from now. */
      type: 'WorkspacePilotEnded';
      data: { tenant_id: string; ends_at: string; ended_at: string };
    }
  | {
      /** Enterprise access: the workspace is fully usable for good (lifts an ended pilot). */
      type: 'WorkspaceEnterpriseActivated';
      data: { tenant_id: string; activated_at: string; source: EntitlementSource; reference: string };
    }
  | {
      type: 'WorkspaceCompanyAdded';
      data: {
        tenant_id: string;
        company_id: string;
        /** The discovery company it was added from, or null (added by name and domain). */
        source_company_id: string | null;
        name: string;
        domain: string;
        stage: string | null;
        owner: string | null;
        snapshot: CompanySnapshot;
        added_by: string;
        added_at: string;
      };
    }
  | {
      type: 'WorkspaceMemoUpdated';
      data: {
        tenant_id: string;
        company_id: string;
        version: number;
        body: string;
        updated_by: string;
        updated_at: string;
      };
    }
  | {
      type: 'WorkspaceDealCreated';
      data: {
        tenant_id: string;
        deal_id: string;
        company_id: string;
        name: string;
        stage: DealStage;
        amount_usd: number | null;
        owner: string | null;
        created_by: string;
        created_at: string;
      };
    }
  | {
      type: 'WorkspaceDealUpdated';
      data: { tenant_id: string; deal_id: string; changes: DealChanges; updated_by: string; updated_at: string };
    }
  | {
      type: 'WorkspaceDealStageChanged';
      data: {
        tenant_id: string;
        deal_id: string;
        from: DealStage;
        to: DealStage;
        changed_by: string;
        changed_at: string;
      };
    }
  | {
      type: 'WorkspaceFollowUpUpserted';
      data: {
        tenant_id: string;
        company_id: string;
        key: string;
        title: string;
        due_at: string;
        assignee: string | null;
        status: FollowUpStatus;
        created: boolean;
        updated_by: string;
        updated_at: string;
      };
    }
  | {
      type: 'WorkspaceFollowUpCompleted';
      data: { tenant_id: string; company_id: string; key: string; completed_by: string; completed_at: string };
    };

/** The fields of a deal a PATCH may change besides its stage. */
export interface DealChanges {
  amount_usd?: number | null;
  next_step?: string | null;
  owner?: string | null;
  notes?: string | null;
  name?: string;
}

export const WORKSPACE_EVENT_TYPES: WorkspaceEvent['type'][] = [
  'WorkspaceTenantCreated',
  'WorkspacePilotStarted',
  'WorkspacePilotEnded',
  'WorkspaceEnterpriseActivated',
  'WorkspaceCompanyAdded',
  'WorkspaceMemoUpdated',
  'WorkspaceDealCreated',
  'WorkspaceDealUpdated',
  'WorkspaceDealStageChanged',
  'WorkspaceFollowUpUpserted',
  'WorkspaceFollowUpCompleted',
];

/** The public type of each stored event in the tenant event stream (null: not in the stream). */
export const PUBLIC_EVENT_TYPES: Record<WorkspaceEvent['type'], string | null> = {
  WorkspaceTenantCreated: null,
  // The tenant's plan is not a record change: /agents/status shows it (not the event stream).
  WorkspacePilotStarted: null,
  WorkspacePilotEnded: null,
  WorkspaceEnterpriseActivated: null,
  WorkspaceCompanyAdded: 'workspace.company.added',
  WorkspaceMemoUpdated: 'workspace.memo.updated',
  WorkspaceDealCreated: 'workspace.deal.created',
  WorkspaceDealUpdated: 'workspace.deal.updated',
  WorkspaceDealStageChanged: 'workspace.deal.stage_changed',
  WorkspaceFollowUpUpserted: 'workspace.followup.upserted',
  WorkspaceFollowUpCompleted: 'workspace.followup.completed',
};

export const WORKSPACE_PUBLIC_EVENT_TYPES = Object.values(PUBLIC_EVENT_TYPES).filter((t): t is string => t !== null);

export const tenantStream = (tenantId: string) => `tenant-${tenantId}`;
export const workspaceCompanyStream = (tenantId: string, companyId: string) => `wscompany-${tenantId}-${companyId}`;
export const memoStream = (tenantId: string, companyId: string) => `wsmemo-${tenantId}-${companyId}`;
export const dealStream = (tenantId: string, dealId: string) => `wsdeal-${tenantId}-${dealId}`;
export const followUpStream = (tenantId: string, companyId: string, key: string) =>
  `wsfollowup-${tenantId}-${companyId}-${key}`;

/**
 * A workspace company's id: derived from the tenant and the domain, so adding one domain twice
 * lands on the same stream (the decider refuses the second) and ids never collide across tenants.
 */
export function workspaceCompanyId(tenantId: string, domain: string): string {
  return `wco_${createHash('sha256').update(`${tenantId}\u0000${domain.toLowerCase()}`).digest('hex').slice(0, 24)}`;
}
