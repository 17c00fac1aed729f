import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext, ProjectionDefinition } from '#projections';
import { type ChannelNames, channelNames, type WebhookChannel } from './channel.js';
import { applyAttempt, applyHold, cancelPending, fanOut, releaseHeld } from './deliveries.evolve.js';
import {
  DELIVERIES_RELEASED,
  DELIVERY_EVENT_TYPES,
  type DeliveriesReleasedEvent,
  type DeliveryEvent,
} from './delivery.events.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEvent } from './webhook.events.js';
import {
  type DeliveryDoc,
  dueAt,
  type OwnerAliasDoc,
  type SubscriptionDoc,
  targetOf,
  type WebhookDoc,
} from './webhook-docs.js';

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
