import type { WebhookDoc } from '#webhooks';

/** A workspace webhook subscription as the API shows it (never its secret). */
export interface SubscriptionView {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  status: 'active' | 'disabled';
  created_at: string;
  updated_at: string;
  /** `delivery_failed` (fifth failed attempt), `gone` (410); null while active. */
  disabled_reason: string | null;
  disabled_at: string | null;
  failure_count: number;
  /** Deliveries waiting because the tenant's credits could not pay `deliver.workspace.webhook`; they go out once credits arrive. */
  held_for_credits: number;
}

export function subscriptionView(doc: WebhookDoc): SubscriptionView {
  return {
    id: doc.id,
    url: doc.url,
    events: doc.events,
    active: doc.status === 'active',
    status: doc.status === 'active' ? 'active' : 'disabled',
    created_at: doc.created_at,
    updated_at: doc.updated_at,
    disabled_reason: doc.disabled_reason,
    disabled_at: doc.disabled_at,
    failure_count: doc.failure_count,
    held_for_credits: doc.held_count ?? 0,
  };
}

/** The 201 of a creation: the subscription, and its secret when it was generated (shown this once). */
export type CreatedSubscriptionView = SubscriptionView & { secret?: string };
