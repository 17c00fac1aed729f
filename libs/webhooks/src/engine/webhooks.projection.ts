// Over 400 lines on purpose: one projection's evolve over its four document kinds (webhooks,
// subscriptions, deliveries, payloads) whose handlers read each other's documents in one batch.
import type { Doc, FindResult } from '#documents';
import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext, ProjectionDefinition } from '#projections';
import { type ChannelNames, channelNames, type WebhookChannel, type WebhookEnvelope } from './channel.js';
import { deliveryIdFor } from './delivery-id.js';
import {
  DELIVERIES_RELEASED,
  DELIVERY_EVENT_TYPES,
  type DeliveriesReleasedEvent,
  type DeliveryAttemptData,
  type DeliveryEvent,
  type DeliveryHeldData,
} from './delivery.events.js';
import { type DisableReason, WEBHOOK_EVENT_TYPES, type WebhookEvent } from './webhook.events.js';

export interface WebhookDoc extends Doc {
  channel: string;
  owner_id: string;
  owner_kind: string;
  url: string;
  /** `protocol//host:port` of the url: the unit of per-host concurrency. */
  target: string;
  events: string[];
  secret_id: string;
  status: 'active' | 'disabled' | 'deleted';
  created_at: string;
  updated_at: string;
  disabled_at: string | null;
  disabled_reason: DisableReason | null;
  re_enabled_at: string | null;
  /** Failed automatic attempts since the last successful one or the last re-enabling. */
  failure_count: number;
  /**
   * A final failure was recorded while the webhook was active: the dispatcher must append
   * WebhookDisabled (it normally does at once; this survives a crash in between).
   */
  disable_requested_at: string | null;
  disable_request: {
    delivery_id: string;
    reason: 'delivery_failed' | 'gone';
    status_code: number | null;
    attempt_started_at: string;
  } | null;
  /** Deliveries of this webhook held because its owner could not pay (absent on old documents). */
  held_count?: number;
}

/** One per (active webhook, subscribed type): what the fan-out looks up. */
export interface SubscriptionDoc extends Doc {
  webhook_id: string;
  owner_id: string;
  event_type: string;
  target: string;
}

export interface AttemptView {
  number: number;
  automatic: number | null;
  manual: boolean;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  succeeded: boolean;
}

/** `held`: the owner could not pay for its next push; it waits for a release, out of the schedule. */
export const DELIVERY_STATUSES = ['pending', 'held', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface DeliveryDoc extends Doc {
  webhook_id: string;
  owner_id: string;
  event_id: string;
  event_type: string;
  created_at: string;
  state: DeliveryStatus;
  /** The latest attempts (at most ATTEMPTS_KEPT); the event log has them all. */
  attempts: AttemptView[];
  attempt_count: number;
  automatic_attempts: number;
  /** Next automatic attempt while pending. */
  next_attempt_at: string | null;
  /** An outstanding redelivery request. */
  manual_request_id: string | null;
  manual_requested_at: string | null;
  /** When the dispatcher has something to do: the earlier of the two above; null when nothing. */
  dispatch_at: string | null;
  /** Revision of the delivery stream this document reflects (-1: no event yet). */
  revision: number;
  target: string;
  /** Set while held (a pending push or an asked-for redelivery waits for the owner to pay). */
  held_at?: string | null;
}

/** An alias of an owner (ReleaseSource), e.g. the account of a tenant. */
export interface OwnerAliasDoc extends Doc {
  owner_id: string;
}

export interface PayloadDoc extends Doc {
  envelope: WebhookEnvelope;
}

/** Attempts kept per delivery document (5 automatic ones and the latest redeliveries). */
export const ATTEMPTS_KEPT = 25;

export function targetOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}`;
  } catch {
    return url;
  }
}

function dueAt(doc: Pick<DeliveryDoc, 'state' | 'next_attempt_at' | 'manual_requested_at' | 'held_at'>): string | null {
  if (doc.held_at) return null;
  const times: string[] = [];
  if (doc.state === 'pending' && doc.next_attempt_at) times.push(doc.next_attempt_at);
  if (doc.manual_requested_at) times.push(doc.manual_requested_at);
  if (times.length === 0) return null;
  return times.sort()[0]!;
}

const iso = (value: unknown, fallback: string): string => {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
};

/**
 * The read model of one channel and its fan-out, in ONE projection so that the fan-out of an
 * event sees the subscriptions exactly as they were at that event's position:
 * - webhooks and their subscriptions, from `webhook-*` events;
 * - deliveries: each envelope of the channel's source (and each test event) becomes one delivery
 *   per active webhook of its owner subscribed to its type, with a DERIVED id
 *   (deliveryIdFor(webhook, event)); recorded attempts (`webhookdelivery-*`) move it on;
 * - payloads: the envelope of each fanned-out event, once (not once per delivery).
 *
 * Exactly once, restarts and rebuilds: deliveries are documents of this projection, committed
 * with its checkpoint (embedded: one transaction; MongoDB: guarded by position), so a restart
 * neither loses nor doubles one. A rebuild replays the same events in the same order: it makes
 * the same delivery ids and re-applies their recorded attempts, so a delivery that succeeded
 * is rebuilt as succeeded and nothing is sent again; what was pending is pending again at the
 * same time. (The dispatcher also checks the delivery stream's revision before each send, so a
 * stale generation read during a rebuild cannot resend either.)
 */
export function webhooksProjection(channel: WebhookChannel): ProjectionDefinition {
  const names = channelNames(channel);
  const sourceTypes = new Set(channel.source.storedEventTypes);
  const releases = channel.releases;
  const aliasTypes = new Set(releases?.aliasEventTypes ?? []);
  const releaseTypes = new Set(releases?.releaseEventTypes ?? []);
  return {
    name: names.projection,
    // 2: held deliveries and their releases (ADR 0062).
    version: 2,
    eventTypes: [
      ...new Set([
        ...WEBHOOK_EVENT_TYPES,
        ...DELIVERY_EVENT_TYPES,
        DELIVERIES_RELEASED,
        ...channel.source.storedEventTypes,
        ...aliasTypes,
        ...releaseTypes,
      ]),
    ],
    collections: [
      {
        name: names.webhooks,
        indexes: [
          {
            fields: [
              ['owner_id', 1],
              ['created_at', -1],
              ['id', -1],
            ],
          },
          { fields: [['disable_requested_at', 1]] },
        ],
      },
      {
        name: names.subscriptions,
        indexes: [
          {
            fields: [
              ['owner_id', 1],
              ['event_type', 1],
            ],
          },
        ],
      },
      {
        name: names.deliveries,
        indexes: [
          { fields: [['dispatch_at', 1]] },
          {
            fields: [
              ['target', 1],
              ['dispatch_at', 1],
            ],
          },
          {
            fields: [
              ['webhook_id', 1],
              ['created_at', -1],
              ['id', -1],
            ],
          },
          // Disabling cancels a webhook's pending deliveries. (Deleting also drops asked-for
          // redeliveries: rare, so it walks the webhook's deliveries by the index above instead of
          // taxing every write with one more index.)
          {
            fields: [
              ['webhook_id', 1],
              ['state', 1],
            ],
          },
          // An owner's deliveries across its webhooks, newest first.
          {
            fields: [
              ['owner_id', 1],
              ['created_at', -1],
              ['id', -1],
            ],
          },
          // Releasing an owner's held deliveries.
          {
            fields: [
              ['owner_id', 1],
              ['held_at', 1],
            ],
          },
        ],
      },
      { name: names.payloads },
      { name: names.aliases },
    ],
    async handle(raw: RecordedEvent, ctx: ProjectionContext) {
      // One stored type may be both a source and a release or alias (not today): all apply.
      if (releases && aliasTypes.has(raw.type)) {
        const alias = releases.toAlias(raw);
        if (alias) ctx.upsert(names.aliases, { id: alias.alias, owner_id: alias.ownerId } satisfies OwnerAliasDoc);
      }
      if (releases && releaseTypes.has(raw.type)) {
        const alias = releases.releasedAlias(raw);
        const owner = alias ? await ctx.get<OwnerAliasDoc>(names.aliases, alias) : null;
        if (owner) await releaseHeld(ctx, names, owner.owner_id);
      }
      if (sourceTypes.has(raw.type)) {
        const sourced = channel.source.toEnvelope(raw);
        if (sourced) await fanOut(ctx, names, sourced.ownerId, sourced.envelope, raw, null);
        return;
      }
      if (raw.type === DELIVERIES_RELEASED) {
        const d = (raw as unknown as DeliveriesReleasedEvent).data;
        if (d.channel === channel.name) await releaseHeld(ctx, names, d.owner_id);
        return;
      }
      if (!raw.type.startsWith('Webhook')) return;
      const event = raw as unknown as WebhookEvent | DeliveryEvent;
      if ((event.data as { channel?: string }).channel !== channel.name) return;
      switch (event.type) {
        case 'WebhookCreated': {
          const d = event.data;
          const doc: WebhookDoc = {
            id: d.webhook_id,
            channel: d.channel,
            owner_id: d.owner.id,
            owner_kind: d.owner.kind,
            url: d.url,
            target: targetOf(d.url),
            events: d.events,
            secret_id: d.secret_id,
            status: 'active',
            created_at: d.created_at,
            updated_at: d.created_at,
            disabled_at: null,
            disabled_reason: null,
            re_enabled_at: null,
            failure_count: 0,
            disable_requested_at: null,
            disable_request: null,
          };
          ctx.upsert(names.webhooks, doc);
          subscribe(ctx, names, doc);
          return;
        }
        case 'WebhookUpdated': {
          const d = event.data;
          const doc = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
          if (!doc || doc.status === 'deleted') return;
          if (doc.status === 'active') unsubscribe(ctx, names, doc);
          if (d.url !== undefined) {
            doc.url = d.url;
            doc.target = targetOf(d.url);
          }
          if (d.events !== undefined) doc.events = d.events;
          if (d.secret_id !== undefined) doc.secret_id = d.secret_id;
          doc.updated_at = d.updated_at;
          ctx.upsert(names.webhooks, doc);
          if (doc.status === 'active') subscribe(ctx, names, doc);
          return;
        }
        case 'WebhookDisabled': {
          const d = event.data;
          const doc = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
          if (!doc || doc.status === 'deleted') return;
          if (doc.status === 'active') unsubscribe(ctx, names, doc);
          Object.assign(doc, {
            status: 'disabled',
            disabled_at: d.disabled_at,
            disabled_reason: d.reason,
            updated_at: d.disabled_at,
            disable_requested_at: null,
            disable_request: null,
          });
          ctx.upsert(names.webhooks, doc);
          // D12: disabling stops the webhook's other retries (redeliveries asked for stay).
          await cancelPending(ctx, names, d.webhook_id, false);
          return;
        }
        case 'WebhookReEnabled': {
          const d = event.data;
          const doc = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
          if (!doc || doc.status !== 'disabled') return;
          Object.assign(doc, {
            status: 'active',
            re_enabled_at: d.re_enabled_at,
            updated_at: d.re_enabled_at,
            disabled_at: null,
            disabled_reason: null,
            failure_count: 0,
            disable_requested_at: null,
            disable_request: null,
          });
          ctx.upsert(names.webhooks, doc);
          subscribe(ctx, names, doc);
          return;
        }
        case 'WebhookDeleted': {
          const d = event.data;
          const doc = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
          if (!doc || doc.status === 'deleted') return;
          if (doc.status === 'active') unsubscribe(ctx, names, doc);
          Object.assign(doc, {
            status: 'deleted',
            updated_at: d.deleted_at,
            disable_requested_at: null,
            disable_request: null,
          });
          ctx.upsert(names.webhooks, doc);
          await cancelPending(ctx, names, d.webhook_id, true);
          return;
        }
        case 'WebhookTestRequested': {
          const d = event.data;
          const doc = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
          if (!doc || doc.status !== 'active') return;
          await fanOut(ctx, names, doc.owner_id, d.event, raw, doc);
          return;
        }
        case 'WebhookDeliveryAttempted':
          await applyAttempt(ctx, names, event.data, raw.revision);
          return;
        case 'WebhookDeliveryHeld':
          await applyHold(ctx, names, event.data, raw.revision);
          return;
        case 'WebhookRedeliveryRequested': {
          const d = event.data;
          const doc = await ctx.get<DeliveryDoc>(names.deliveries, d.delivery_id);
          if (!doc || doc.revision >= raw.revision) return;
          doc.revision = raw.revision;
          doc.manual_request_id = d.request_id;
          doc.manual_requested_at = d.requested_at;
          doc.dispatch_at = dueAt(doc);
          ctx.upsert(names.deliveries, doc);
          return;
        }
      }
    },
  };
}

function subscribe(ctx: ProjectionContext, names: ChannelNames, doc: WebhookDoc): void {
  for (const type of doc.events) {
    const sub: SubscriptionDoc = {
      id: `${doc.id}:${type}`,
      webhook_id: doc.id,
      owner_id: doc.owner_id,
      event_type: type,
      target: doc.target,
    };
    ctx.upsert(names.subscriptions, sub);
  }
}

function unsubscribe(ctx: ProjectionContext, names: ChannelNames, doc: WebhookDoc): void {
  for (const type of doc.events) ctx.delete(names.subscriptions, `${doc.id}:${type}`);
}

/**
 * One delivery per subscribed webhook (or for `only`, the test event's webhook). The payload
 * document doubles as the "already fanned out" mark: an envelope id published twice is sent once.
 */
async function fanOut(
  ctx: ProjectionContext,
  names: ChannelNames,
  ownerId: string,
  envelope: WebhookEnvelope,
  raw: RecordedEvent,
  only: WebhookDoc | null,
): Promise<void> {
  if (!envelope || typeof envelope.id !== 'string' || typeof envelope.type !== 'string') return;
  // Written by an earlier event: a duplicate publish. (Same position: this event replayed after
  // a crash mid-batch on MongoDB; go on, the position guards make the rewrites no-ops.)
  const existing = await ctx.get(names.payloads, envelope.id);
  if (existing && (typeof existing._position !== 'number' || existing._position < raw.position)) return;
  const created = iso(envelope.created, raw.created);
  const targets: Array<{ webhook_id: string; target: string }> = [];
  if (only) targets.push({ webhook_id: only.id, target: only.target });
  else {
    let after: string | undefined;
    do {
      const page = await ctx.find<SubscriptionDoc>(
        names.subscriptions,
        { owner_id: ownerId, event_type: envelope.type },
        { limit: 1000, ...(after ? { after } : {}) },
      );
      for (const sub of page.items) targets.push({ webhook_id: sub.webhook_id, target: sub.target });
      after = page.nextCursor ?? undefined;
    } while (after);
  }
  if (targets.length === 0) return;
  const payload: PayloadDoc = { id: envelope.id, envelope };
  ctx.upsert(names.payloads, payload);
  for (const t of targets) {
    const delivery: DeliveryDoc = {
      id: deliveryIdFor(t.webhook_id, envelope.id, created),
      webhook_id: t.webhook_id,
      owner_id: ownerId,
      event_id: envelope.id,
      event_type: envelope.type,
      created_at: created,
      state: 'pending',
      attempts: [],
      attempt_count: 0,
      automatic_attempts: 0,
      // Attempt 1 is immediate (D12): due from the event's own time.
      next_attempt_at: created,
      manual_request_id: null,
      manual_requested_at: null,
      dispatch_at: created,
      revision: -1,
      target: t.target,
    };
    ctx.upsert(names.deliveries, delivery);
  }
}

async function applyAttempt(
  ctx: ProjectionContext,
  names: ChannelNames,
  d: DeliveryAttemptData,
  revision: number,
): Promise<void> {
  const doc = await ctx.get<DeliveryDoc>(names.deliveries, d.delivery_id);
  // The document already reflects this event of its stream (or the delivery is unknown): the
  // attempt is counted nowhere twice.
  if (!doc || doc.revision >= revision) return;
  // An attempt was made: whatever was held is not any more.
  const wasHeld = Boolean(doc.held_at);
  {
    doc.revision = revision;
    doc.held_at = null;
    if (doc.state === 'held') doc.state = 'pending';
    doc.attempt_count = Math.max(doc.attempt_count, d.number);
    if (d.automatic !== null) doc.automatic_attempts = Math.max(doc.automatic_attempts, d.automatic);
    doc.attempts = [
      ...doc.attempts,
      {
        number: d.number,
        automatic: d.automatic,
        manual: d.manual,
        started_at: d.started_at,
        duration_ms: d.duration_ms,
        status_code: d.status_code,
        error: d.error,
        response_body: d.response_body,
        succeeded: d.succeeded,
      },
    ].slice(-ATTEMPTS_KEPT);
    if (d.succeeded) {
      doc.state = 'succeeded';
      doc.next_attempt_at = null;
    } else if (d.final) {
      if (doc.state !== 'succeeded') doc.state = 'failed';
      doc.next_attempt_at = null;
    } else if (d.automatic !== null && doc.state === 'pending') {
      doc.next_attempt_at = d.next_attempt_at;
    }
    if (d.manual && d.request_id !== null && doc.manual_request_id === d.request_id) {
      doc.manual_request_id = null;
      doc.manual_requested_at = null;
    }
    doc.dispatch_at = dueAt(doc);
    ctx.upsert(names.deliveries, doc);
  }
  const webhook = await ctx.get<WebhookDoc>(names.webhooks, d.webhook_id);
  if (!webhook || webhook.status === 'deleted') return;
  let changed = false;
  if (wasHeld) {
    webhook.held_count = Math.max(0, (webhook.held_count ?? 0) - 1);
    changed = true;
  }
  if (d.automatic !== null) {
    const count = d.succeeded ? 0 : webhook.failure_count + 1;
    if (count !== webhook.failure_count) {
      webhook.failure_count = count;
      changed = true;
    }
  }
  const afterReEnable = webhook.re_enabled_at === null || d.started_at >= webhook.re_enabled_at;
  if (d.final && webhook.status === 'active' && afterReEnable && webhook.disable_requested_at === null) {
    webhook.disable_requested_at = d.started_at;
    webhook.disable_request = {
      delivery_id: d.delivery_id,
      reason: d.final === 'gone' ? 'gone' : 'delivery_failed',
      status_code: d.status_code,
      attempt_started_at: d.started_at,
    };
    changed = true;
  }
  if (changed) ctx.upsert(names.webhooks, webhook);
}

/** The owner could not pay: the delivery leaves the schedule until released. */
async function applyHold(
  ctx: ProjectionContext,
  names: ChannelNames,
  d: DeliveryHeldData,
  revision: number,
): Promise<void> {
  const doc = await ctx.get<DeliveryDoc>(names.deliveries, d.delivery_id);
  if (!doc || doc.revision >= revision) return;
  doc.revision = revision;
  const wasHeld = Boolean(doc.held_at);
  // An automatic push held takes the delivery out of the schedule (`held`); a held redelivery
  // only pauses it (its automatic schedule, if any, stands and resumes at the release).
  const nothingToHold = d.manual ? doc.manual_request_id === null : doc.state !== 'pending';
  if (nothingToHold) {
    // It went out, gave up, or was cancelled meanwhile.
    ctx.upsert(names.deliveries, doc);
    return;
  }
  if (!d.manual) doc.state = 'held';
  doc.held_at = d.held_at;
  doc.dispatch_at = dueAt(doc);
  ctx.upsert(names.deliveries, doc);
  if (!wasHeld) await countHeld(ctx, names, doc.webhook_id, +1);
}

/**
 * Every held delivery of the owner is due again, from the time it was held (so they go out in
 * their order, and the time does not depend on whose clock wrote the release).
 */
async function releaseHeld(ctx: ProjectionContext, names: ChannelNames, ownerId: string): Promise<void> {
  const perWebhook = new Map<string, number>();
  let after: string | undefined;
  do {
    const page: FindResult<DeliveryDoc> = await ctx.find<DeliveryDoc>(
      names.deliveries,
      { owner_id: ownerId, held_at: { $gt: '' } },
      { limit: 500, ...(after ? { after } : {}) },
    );
    for (const doc of page.items) {
      if (doc.state === 'held') {
        doc.state = 'pending';
        doc.next_attempt_at = doc.held_at ?? doc.next_attempt_at;
      }
      doc.held_at = null;
      doc.dispatch_at = dueAt(doc);
      ctx.upsert(names.deliveries, doc);
      perWebhook.set(doc.webhook_id, (perWebhook.get(doc.webhook_id) ?? 0) + 1);
    }
    after = page.nextCursor ?? undefined;
  } while (after);
  for (const [webhookId, n] of perWebhook) await countHeld(ctx, names, webhookId, -n);
}

async function countHeld(ctx: ProjectionContext, names: ChannelNames, webhookId: string, delta: number): Promise<void> {
  const webhook = await ctx.get<WebhookDoc>(names.webhooks, webhookId);
  if (!webhook) return;
  webhook.held_count = Math.max(0, (webhook.held_count ?? 0) + delta);
  ctx.upsert(names.webhooks, webhook);
}

/** Stops a webhook's automatic retries (and, when deleted, its asked-for redeliveries too). */
async function cancelPending(
  ctx: ProjectionContext,
  names: ChannelNames,
  webhookId: string,
  dropManual: boolean,
): Promise<void> {
  let after: string | undefined;
  let unheld = 0;
  do {
    const page: FindResult<DeliveryDoc> = await ctx.find<DeliveryDoc>(
      names.deliveries,
      { webhook_id: webhookId, state: { $in: ['pending', 'held'] } },
      { limit: 500, ...(after ? { after } : {}) },
    );
    for (const doc of page.items) {
      if (doc.held_at) unheld++;
      doc.state = 'cancelled';
      doc.next_attempt_at = null;
      doc.held_at = null;
      if (dropManual) {
        doc.manual_request_id = null;
        doc.manual_requested_at = null;
      }
      doc.dispatch_at = dueAt(doc);
      ctx.upsert(names.deliveries, doc);
    }
    after = page.nextCursor ?? undefined;
  } while (after);
  if (unheld > 0) await countHeld(ctx, names, webhookId, -unheld);
  if (!dropManual) return;
  after = undefined;
  do {
    const page: FindResult<DeliveryDoc> = await ctx.find<DeliveryDoc>(
      names.deliveries,
      { webhook_id: webhookId, manual_requested_at: { $gt: '' } },
      { limit: 500, ...(after ? { after } : {}) },
    );
    for (const doc of page.items) {
      doc.manual_request_id = null;
      doc.manual_requested_at = null;
      doc.held_at = null;
      doc.dispatch_at = dueAt(doc);
      ctx.upsert(names.deliveries, doc);
    }
    after = page.nextCursor ?? undefined;
  } while (after);
}
