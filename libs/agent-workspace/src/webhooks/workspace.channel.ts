import type { RecordedEvent } from '#eventstore';
import type { WebhookChannel } from '#webhooks';
import { PUBLIC_EVENT_TYPES, WORKSPACE_EVENT_TYPES, type WorkspaceEvent } from '../workspace.events.js';
import { occurredAt, publicData } from '../workspace.projection.js';

export const WORKSPACE_CHANNEL = 'workspace';

/** Credit events that let a tenant's account pay for held pushes again. */
const CREDIT_ARRIVALS = ['CreditsPurchased', 'CreditsGranted', 'MeterChargeSettled'];

/**
 * The workspace subscriptions (ADR 0062): the webhook engine's second channel. Owners
 * are tenants; each event of the tenant event stream (GET /workspace/events) is pushed as the
 * spec's envelope with the same id, type and data, so a receiver and a reader of the stream see
 * one event the same way. Pushes are charged `deliver.workspace.webhook` to the tenant
 * (WorkspaceDeliveryMeter); when the tenant cannot pay they are held, and released by the next
 * credits of the tenant's account.
 */
export const workspaceChannel: WebhookChannel = {
  name: WORKSPACE_CHANNEL,
  ownerKind: 'tenant',
  idPrefix: 'sub',
  eventTypes: Object.values(PUBLIC_EVENT_TYPES).filter((t): t is string => t !== null),
  testEventType: 'webhook.test',
  source: {
    storedEventTypes: WORKSPACE_EVENT_TYPES.filter((t) => PUBLIC_EVENT_TYPES[t] !== null),
    toEnvelope(raw: RecordedEvent) {
      const event = raw as unknown as WorkspaceEvent;
      const type = PUBLIC_EVENT_TYPES[event.type];
      if (!type) return null;
      return {
        ownerId: event.data.tenant_id,
        envelope: { id: raw.id, type, created: occurredAt(event) || raw.created, data: publicData(event) },
      };
    },
  },
  releases: {
    aliasEventTypes: ['WorkspaceTenantCreated'],
    toAlias(raw) {
      const d = raw.data as { tenant_id?: unknown; owner_account_id?: unknown };
      return typeof d.tenant_id === 'string' && typeof d.owner_account_id === 'string'
        ? { alias: d.owner_account_id, ownerId: d.tenant_id }
        : null;
    },
    releaseEventTypes: CREDIT_ARRIVALS,
    releasedAlias(raw) {
      const d = raw.data as { account_id?: unknown; refunded_cents?: unknown };
      // A settled charge gives credits back only when refunded.
      if (raw.type === 'MeterChargeSettled' && !(typeof d.refunded_cents === 'number' && d.refunded_cents > 0))
        return null;
      return typeof d.account_id === 'string' ? d.account_id : null;
    },
  },
};
