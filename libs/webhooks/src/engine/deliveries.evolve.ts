// How webhooksProjection moves its delivery documents: the fan-out of an event into deliveries,
// recorded attempts and holds, releases of held deliveries and the cancelling of a webhook's
// pending ones. Pure evolves over the projection's batch context.
import type { FindResult } from '#documents';
import type { RecordedEvent } from '#eventstore';
import type { ProjectionContext } from '#projections';
import type { ChannelNames, WebhookEnvelope } from './channel.js';
import { deliveryIdFor } from './delivery-id.js';
import type { DeliveryAttemptData, DeliveryHeldData } from './delivery.events.js';
import {
  ATTEMPTS_KEPT,
  type DeliveryDoc,
  dueAt,
  type PayloadDoc,
  type SubscriptionDoc,
  type WebhookDoc,
} from './webhook-docs.js';

const iso = (value: unknown, fallback: string): string => {
  const ms = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : fallback;
};

/**
 * One delivery per subscribed webhook (or for `only`, the test event's webhook). The payload
 * document doubles as the "already fanned out" mark: an envelope id published twice is sent once.
 */
export async function fanOut(
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

export async function applyAttempt(
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
export async function applyHold(
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
export async function releaseHeld(ctx: ProjectionContext, names: ChannelNames, ownerId: string): Promise<void> {
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
export async function cancelPending(
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
