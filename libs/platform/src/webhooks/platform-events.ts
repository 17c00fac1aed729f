import type { DomainEvent, RecordedEvent } from '#eventstore';
import type { WebhookChannel } from '#webhooks';
import {
  PLATFORM_EVENT_TYPES,
  type PlatformEventEnvelope,
  platformEventSource,
} from '../platform-events/platform-event.js';

/** D13: sent by `POST /v1/webhooks/{id}/test` whatever the subscription; not subscribable. */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';

/** Stored type of a platform event published for webhooks. */
export const PLATFORM_EVENT_PUBLISHED = 'PlatformEventPublished';

export interface PlatformEventPublishedData {
  /** The account whose webhooks receive it. */
  account_id: string;
  /** The envelope exactly as receivers get it (spec "Event envelope"). */
  event: PlatformEventEnvelope;
}

/**
 * How a platform feature publishes an event to webhooks (repositories, agents,
 * security, approvals): put this event in the SAME append as the domain event it reports (any
 * stream), so the event exists exactly when the change does:
 *
 *   await store.append(`run-${id}`, [runCompleted, platformEventPublished(accountId, {
 *     id: ids.next('evt'), type: 'agent.completed', created: now.toISOString(), data, repository }),
 *   ], revision);
 *
 * The fan-out (projection `webhooks-platform`) then makes one delivery per active webhook of that
 * account subscribed to the type. `created` should come from the injected clock.
 */
export function platformEventPublished(accountId: string, event: PlatformEventEnvelope): DomainEvent {
  const data: PlatformEventPublishedData = { account_id: accountId, event };
  return { type: PLATFORM_EVENT_PUBLISHED, data };
}

function explicitEnvelope(event: RecordedEvent) {
  const data = event.data as Partial<PlatformEventPublishedData> | null;
  const envelope = data?.event;
  if (
    !data ||
    typeof data.account_id !== 'string' ||
    !envelope ||
    typeof envelope.id !== 'string' ||
    typeof envelope.type !== 'string'
  )
    return null;
  return { ownerId: data.account_id, envelope };
}

/**
 * The `/v1/webhooks` channel of the delivery engine. Its source is the platform domain's own
 * events (`platformEventSource` of `#platform`: repositories, runs, scans, approvals, each mapped
 * to its envelope with an id derived from the source event, so a rebuild resends nothing), plus
 * explicitly published `PlatformEventPublished` events.
 */
export const platformWebhookChannel: WebhookChannel = {
  name: 'platform',
  ownerKind: 'platform_account',
  idPrefix: 'wh',
  eventTypes: PLATFORM_EVENT_TYPES,
  testEventType: WEBHOOK_TEST_EVENT_TYPE,
  source: {
    storedEventTypes: [PLATFORM_EVENT_PUBLISHED, ...platformEventSource.storedEventTypes],
    toEnvelope(event: RecordedEvent) {
      if (event.type === PLATFORM_EVENT_PUBLISHED) return explicitEnvelope(event);
      const mapped = platformEventSource.toEnvelope(event);
      return mapped ? { ownerId: mapped.ownerId, envelope: mapped.envelope as unknown as PlatformEventEnvelope } : null;
    },
  },
};
