import type { IdPrefix } from '#kernel';
import type { RecordedEvent } from '#eventstore';

/**
 * Who owns a webhook: a platform account (`/v1/webhooks`) or, later, an agent-surface tenant
 * (workspace webhook subscriptions). A webhook only ever receives its own owner's events.
 */
export type WebhookOwnerKind = 'platform_account' | 'tenant';

export interface WebhookOwner {
  kind: WebhookOwnerKind;
  id: string;
}

/** The JSON document a delivery POSTs (spec "Event envelope"); the exact bytes sent are signed. */
export interface WebhookEnvelope {
  /** `evt_…`: also what makes a delivery unique per webhook. */
  id: string;
  type: string;
  /** ISO 8601 UTC. */
  created: string;
  data: Record<string, unknown>;
  repository?: { id: string; name: string };
  [field: string]: unknown;
}

/** An envelope found in a stored event, with the owner whose webhooks it goes to. */
export interface SourcedEnvelope {
  ownerId: string;
  envelope: WebhookEnvelope;
}

/**
 * Where a channel's envelopes come from: the stored event types that carry them and how to read
 * one. `toEnvelope` must be a pure function of the event (the fan-out is a projection: a rebuild
 * must derive the same deliveries). Return null for an event that is not for webhooks.
 */
export interface EnvelopeSource {
  storedEventTypes: readonly string[];
  toEnvelope(event: RecordedEvent): SourcedEnvelope | null;
}

/**
 * For a channel whose hooks hold deliveries (an owner that cannot pay): which stored events
 * release an owner's held deliveries. Owners are found through aliases (the account whose
 * credits arrive → the tenant owning the webhooks), kept by the channel's projection from the
 * events that bind them, so a rebuild releases exactly as the first run did. Both functions
 * must be pure functions of the event.
 */
export interface ReleaseSource {
  /** Events binding an alias to an owner (e.g. a tenant's opening names its account). */
  aliasEventTypes: readonly string[];
  toAlias(event: RecordedEvent): { alias: string; ownerId: string } | null;
  /** Events after which the alias's owner can pay again (e.g. credits purchased or granted). */
  releaseEventTypes: readonly string[];
  releasedAlias(event: RecordedEvent): string | null;
}

/**
 * One use of the delivery engine: the platform's `/v1/webhooks`, the agent surface's workspace
 * subscriptions. Same signing, schedule, dispatcher and records; its own owners, event types,
 * id prefix, read models (`webhooks-{name}` projection) and hooks (metering, see DeliveryHooks).
 */
export interface WebhookChannel {
  /** `[a-z][a-z0-9_]*`; stored in every event of the channel and names its projection and collections. */
  name: string;
  ownerKind: WebhookOwnerKind;
  /** Prefix of webhook ids (`wh` platform, `sub` workspace subscriptions). */
  idPrefix: IdPrefix;
  /** Event types a webhook may subscribe to (exact names). */
  eventTypes: readonly string[];
  /** Type of the test event (`webhook.test`), sent whatever the subscription (D13). */
  testEventType: string;
  source: EnvelopeSource;
  releases?: ReleaseSource;
}

/** Stored/projection names derived from a channel. */
export function channelNames(channel: Pick<WebhookChannel, 'name'>) {
  if (!/^[a-z][a-z0-9_]*$/.test(channel.name))
    throw new Error(`Invalid webhook channel name ${JSON.stringify(channel.name)}`);
  return {
    projection: `webhooks-${channel.name}`,
    webhooks: `${channel.name}_webhooks`,
    subscriptions: `${channel.name}_webhook_subscriptions`,
    deliveries: `${channel.name}_webhook_deliveries`,
    payloads: `${channel.name}_webhook_payloads`,
    aliases: `${channel.name}_webhook_owner_aliases`,
  };
}
export type ChannelNames = ReturnType<typeof channelNames>;
