import type { DealDoc, FollowUpDoc, MemoDoc, TenantEventDoc, WorkspaceCompanyDoc } from './workspace.projection.js';

/** What the workspace routes answer (read-model bookkeeping and tenant ids left out). */
export interface WorkspaceCompanyView {
  id: string;
  name: string;
  domain: string;
  stage: string | null;
  owner: string | null;
  source_company_id: string | null;
  added_at: string;
  added_by: string;
}

export interface WorkspaceCompanyDetailView extends WorkspaceCompanyView {
  /** The discovery profile and score copied when the company was added (null: added by name). */
  profile: Record<string, unknown> | null;
  score: Record<string, unknown> | null;
}

export interface MemoView {
  company_id: string;
  version: number;
  body: string;
  updated_at: string | null;
  updated_by: string | null;
}

export type DealView = Omit<DealDoc, 'tenant_id' | '_position'>;
export type FollowUpView = Omit<FollowUpDoc, 'tenant_id' | '_position' | 'id'>;

export interface TenantEventView {
  id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

export function companyView(doc: WorkspaceCompanyDoc): WorkspaceCompanyView {
  return {
    id: doc.id,
    name: doc.name,
    domain: doc.domain,
    stage: doc.stage,
    owner: doc.owner,
    source_company_id: doc.source_company_id,
    added_at: doc.added_at,
    added_by: doc.added_by,
  };
}

export function companyDetailView(doc: WorkspaceCompanyDoc): WorkspaceCompanyDetailView {
  const snapshot = JSON.parse(doc.snapshot_json) as {
    profile: Record<string, unknown> | null;
    score: Record<string, unknown> | null;
  };
  return { ...companyView(doc), profile: snapshot.profile, score: snapshot.score };
}

export function memoView(companyId: string, doc: MemoDoc | null): MemoView {
  if (!doc) return { company_id: companyId, version: 0, body: '', updated_at: null, updated_by: null };
  return {
    company_id: companyId,
    version: doc.version,
    body: doc.body,
    updated_at: doc.updated_at,
    updated_by: doc.updated_by,
  };
}

export function dealView(doc: DealDoc): DealView {
  const { tenant_id: _t, _position: _p, ...view } = doc as DealDoc & { _position?: number };
  return view;
}

export function followUpView(doc: FollowUpDoc): FollowUpView {
  const { tenant_id: _t, _position: _p, id: _id, ...view } = doc as FollowUpDoc & { _position?: number };
  return view;
}

export function tenantEventView(doc: TenantEventDoc): TenantEventView {
  return {
    id: doc.event_id,
    type: doc.type,
    occurred_at: doc.occurred_at,
    data: doc.data,
  };
}
