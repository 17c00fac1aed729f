/**
 * `svc audit deliveries` (ADR 0064): replays the webhook engine's events from the event
 * store, not from its read models, and checks every delivery's recorded attempts against the
 * retry schedule (D12, retry-schedule.ts).
 *
 * The replay follows the channels' fan-out as the webhooks projection does (a delivery per
 * active webhook of the owner subscribed to the envelope's type, with the same derived id), so
 * deliveries never attempted are counted too; then attempts, holds, releases, disabling and
 * deleting move each delivery between the five outcomes. Events are read as a stream; memory
 * holds a few numbers per delivery and per webhook and the ids of fanned-out envelopes, nothing
 * of payloads.
 *
 * The checks per automatic attempt are in delivery-schedule.rules.ts.
 */
import type { AllFilter, EventStore, RecordedEvent } from '#eventstore';
import type { WebhookChannel, WebhookEnvelope } from '../engine/channel.js';
import { OUTCOME_UNKNOWN_ERROR } from '../engine/delivery.decider.js';
import { deliveryIdFor, deliveryIdTime } from '../engine/delivery-id.js';
import {
  DELIVERIES_RELEASED,
  type DeliveriesReleasedEvent,
  type DeliveryAttemptData,
  type DeliveryEvent,
} from '../engine/delivery.events.js';
import type { WebhookEvent } from '../engine/webhook.events.js';
import type { DeliveryStatus } from '../engine/webhook-docs.js';
import {
  afterAttempt,
  automaticAttemptBreaks,
  type DeliverySchedule,
  SCHEDULE_TOLERANCE_MS,
  type ScheduleBreak,
  type WebhookSchedule,
} from './delivery-schedule.rules.js';

export {
  afterAttempt,
  automaticAttemptBreaks,
  type BreakRule,
  type DeliverySchedule,
  SCHEDULE_TOLERANCE_MS,
  type ScheduleBreak,
  type WebhookSchedule,
} from './delivery-schedule.rules.js';

/** One line of `svc audit deliveries`. */
export interface WebhookAuditLine {
  webhook_id: string;
  channel: string;
  owner_id: string | null;
  /** `unknown`: attempts name it but its stream holds no WebhookCreated. */
  status: 'active' | 'disabled' | 'deleted' | 'unknown';
  deliveries: Record<DeliveryStatus, number>;
  /** `outcome_unknown`: sent by a process that stopped before recording them (ADR 0070), of either kind. */
  attempts: { automatic: number; manual: number; outcome_unknown: number };
  breaks: ScheduleBreak[];
  ok: boolean;
}

interface WebhookTrack extends WebhookSchedule {
  id: string;
  channel: string;
  ownerId: string | null;
  status: WebhookAuditLine['status'];
  events: string[];
  deliveries: Record<DeliveryStatus, number>;
  /** `outcome_unknown`: sent by a process that stopped before recording them (ADR 0070), of either kind. */
  attempts: { automatic: number; manual: number; outcome_unknown: number };
  breaks: ScheduleBreak[];
  /** Its deliveries still pending or held (a disable cancels them). */
  open: Set<string>;
}

interface DeliveryTrack extends DeliverySchedule {
  webhookId: string;
}

const ownerKey = (channel: string, ownerId: string) => `${channel}\n${ownerId}`;

function createdOf(envelope: WebhookEnvelope, raw: RecordedEvent): string {
  const ms = typeof envelope.created === 'string' ? Date.parse(envelope.created) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : raw.created;
}

export interface DeliveriesAuditOptions {
  /** Only this webhook. */
  webhookId?: string;
  toleranceMs?: number;
  /** The retry schedule's scale the deliveries were made with (SVC_WEBHOOK_RETRY_SCALE); 1 by default. */
  retryScale?: number;
}

/**
 * The replay: feed it the stored events in $all order (`apply`), then read one line per webhook
 * in the order they were created (`lines`). No I/O.
 */
export class DeliveriesReplay {
  private readonly webhooks = new Map<string, WebhookTrack>();
  private readonly deliveries = new Map<string, DeliveryTrack>();
  /** Active webhooks by channel and owner: the fan-out's lookup. */
  private readonly active = new Map<string, Set<string>>();
  /** Held deliveries by channel and owner: what a release lets go. */
  private readonly held = new Map<string, Set<string>>();
  /** Envelopes already fanned out, by channel and envelope id. */
  private readonly fannedOut = new Set<string>();
  /** The channels' owner aliases (an account → its tenant), by channel and alias. */
  private readonly aliases = new Map<string, string>();
  private readonly tolerance: number;

  constructor(
    private readonly channels: readonly WebhookChannel[],
    private readonly options: DeliveriesAuditOptions = {},
  ) {
    this.tolerance = options.toleranceMs ?? SCHEDULE_TOLERANCE_MS;
  }

  apply(raw: RecordedEvent): void {
    for (const channel of this.channels) {
      const releases = channel.releases;
      if (releases?.aliasEventTypes.includes(raw.type)) {
        const alias = releases.toAlias(raw);
        if (alias) this.aliases.set(ownerKey(channel.name, alias.alias), alias.ownerId);
      }
      if (releases?.releaseEventTypes.includes(raw.type)) {
        const alias = releases.releasedAlias(raw);
        const owner = alias === null ? undefined : this.aliases.get(ownerKey(channel.name, alias));
        if (owner !== undefined) this.release(channel.name, owner);
      }
      if (channel.source.storedEventTypes.includes(raw.type)) {
        const sourced = channel.source.toEnvelope(raw);
        if (sourced) this.fanOut(channel.name, sourced.ownerId, sourced.envelope, raw, null);
      }
    }
    if (raw.type === DELIVERIES_RELEASED) {
      const d = (raw as unknown as DeliveriesReleasedEvent).data;
      this.release(d.channel, d.owner_id);
      return;
    }
    if (raw.type.startsWith('Webhook')) this.applyWebhookEvent(raw as unknown as WebhookEvent | DeliveryEvent, raw);
  }

  lines(): WebhookAuditLine[] {
    return [...this.webhooks.values()].map((w) => ({
      webhook_id: w.id,
      channel: w.channel,
      owner_id: w.ownerId,
      status: w.status,
      deliveries: { ...w.deliveries },
      attempts: { ...w.attempts },
      breaks: w.breaks,
      ok: w.breaks.length === 0,
    }));
  }

  private applyWebhookEvent(event: WebhookEvent | DeliveryEvent, raw: RecordedEvent): void {
    const d = event.data;
    if (this.options.webhookId !== undefined && d.webhook_id !== this.options.webhookId) return;
    switch (event.type) {
      case 'WebhookCreated': {
        const w = this.webhook(event.data.webhook_id, event.data.channel);
        Object.assign(w, { ownerId: event.data.owner.id, status: 'active', events: event.data.events });
        this.activate(w, true);
        return;
      }
      case 'WebhookUpdated': {
        const w = this.webhooks.get(event.data.webhook_id);
        if (w && event.data.events !== undefined) w.events = event.data.events;
        return;
      }
      case 'WebhookDisabled':
      case 'WebhookDeleted': {
        const w = this.webhooks.get(d.webhook_id);
        if (!w || w.status === 'deleted') return;
        const at = event.type === 'WebhookDisabled' ? event.data.disabled_at : event.data.deleted_at;
        // Deleting a disabled webhook keeps the time it stopped.
        w.disabledMs = w.status === 'disabled' ? w.disabledMs : Date.parse(at);
        w.status = event.type === 'WebhookDisabled' ? 'disabled' : 'deleted';
        this.activate(w, false);
        for (const id of w.open) {
          const delivery = this.deliveries.get(id)!;
          this.unhold(id, w);
          this.setState(delivery, 'cancelled');
          Object.assign(delivery, { dueMs: null, closedMs: Date.parse(at) });
        }
        w.open.clear();
        return;
      }
      case 'WebhookReEnabled': {
        const w = this.webhooks.get(event.data.webhook_id);
        if (!w || w.status !== 'disabled') return;
        Object.assign(w, { status: 'active', disabledMs: null });
        this.activate(w, true);
        return;
      }
      case 'WebhookTestRequested': {
        const w = this.webhooks.get(event.data.webhook_id);
        if (w?.status === 'active' && w.ownerId !== null)
          this.fanOut(w.channel, w.ownerId, event.data.event, raw, w.id);
        return;
      }
      case 'WebhookDeliveryAttempted':
        this.attempt(event.data);
        return;
      case 'WebhookDeliveryHeld': {
        const delivery = this.delivery(event.data.delivery_id, event.data.webhook_id, event.data.channel);
        if (delivery.state !== 'pending') return;
        this.setState(delivery, 'held');
        const key = ownerKey(event.data.channel, event.data.owner_id);
        if (!this.held.has(key)) this.held.set(key, new Set());
        this.held.get(key)!.add(event.data.delivery_id);
        return;
      }
      case 'WebhookRedeliveryRequested':
        return;
    }
  }

  private attempt(d: DeliveryAttemptData): void {
    const delivery = this.delivery(d.delivery_id, d.webhook_id, d.channel);
    const w = this.webhooks.get(d.webhook_id)!;
    if (d.automatic !== null) {
      w.attempts.automatic++;
      w.breaks.push(...automaticAttemptBreaks(delivery, w, d, this.tolerance));
    } else w.attempts.manual++;
    if (d.error === OUTCOME_UNKNOWN_ERROR) w.attempts.outcome_unknown++;
    if (delivery.state === 'held') this.unhold(d.delivery_id, w);
    const next = afterAttempt(delivery, d, this.options.retryScale ?? 1);
    this.setState(delivery, next.state);
    Object.assign(delivery, next);
    if (next.state !== 'pending') w.open.delete(d.delivery_id);
  }

  private fanOut(
    channel: string,
    ownerId: string,
    envelope: WebhookEnvelope,
    raw: RecordedEvent,
    only: string | null,
  ): void {
    if (!envelope || typeof envelope.id !== 'string' || typeof envelope.type !== 'string') return;
    // The same envelope published again is not fanned out again (the projection's payload mark).
    const mark = ownerKey(channel, envelope.id);
    if (this.fannedOut.has(mark)) return;
    const created = createdOf(envelope, raw);
    const targets = (only !== null ? [only] : [...(this.active.get(ownerKey(channel, ownerId)) ?? [])])
      .map((id) => this.webhooks.get(id)!)
      .filter((w) => only !== null || w.events.includes(envelope.type));
    if (targets.length === 0) return;
    this.fannedOut.add(mark);
    for (const w of targets) this.track(deliveryIdFor(w.id, envelope.id, created), w, Date.parse(created));
  }

  private release(channel: string, ownerId: string): void {
    const key = ownerKey(channel, ownerId);
    for (const id of this.held.get(key) ?? []) {
      const delivery = this.deliveries.get(id);
      if (delivery?.state === 'held') this.setState(delivery, 'pending');
    }
    this.held.delete(key);
  }

  private unhold(deliveryId: string, w: WebhookTrack): void {
    if (w.ownerId !== null) this.held.get(ownerKey(w.channel, w.ownerId))?.delete(deliveryId);
  }

  /** The delivery an event names; one the replay did not fan out (an unknown source) starts here. */
  private delivery(id: string, webhookId: string, channel: string): DeliveryTrack {
    const known = this.deliveries.get(id);
    if (known) return known;
    return this.track(id, this.webhook(webhookId, channel), deliveryIdTime(id));
  }

  private track(id: string, w: WebhookTrack, createdMs: number | null): DeliveryTrack {
    const delivery: DeliveryTrack = {
      webhookId: w.id,
      state: 'pending',
      automatic: 0,
      dueMs: createdMs,
      closedMs: null,
    };
    this.deliveries.set(id, delivery);
    w.deliveries.pending++;
    w.open.add(id);
    return delivery;
  }

  private setState(delivery: DeliveryTrack, state: DeliveryStatus): void {
    if (delivery.state === state) return;
    const counts = this.webhooks.get(delivery.webhookId)!.deliveries;
    counts[delivery.state]--;
    counts[state]++;
    delivery.state = state;
  }

  private webhook(id: string, channel: string): WebhookTrack {
    let w = this.webhooks.get(id);
    if (!w) {
      w = {
        id,
        channel,
        ownerId: null,
        status: 'unknown',
        events: [],
        disabledMs: null,
        deliveries: { succeeded: 0, failed: 0, pending: 0, held: 0, cancelled: 0 },
        attempts: { automatic: 0, manual: 0, outcome_unknown: 0 },
        breaks: [],
        open: new Set(),
      };
      this.webhooks.set(id, w);
    }
    return w;
  }

  private activate(w: WebhookTrack, on: boolean): void {
    if (w.ownerId === null) return;
    const key = ownerKey(w.channel, w.ownerId);
    if (on) {
      if (!this.active.has(key)) this.active.set(key, new Set());
      this.active.get(key)!.add(w.id);
    } else this.active.get(key)?.delete(w.id);
  }
}

/** What the replay needs from $all: the engine's events and the channels' sources, aliases and releases. */
export function deliveriesAuditFilter(channels: readonly WebhookChannel[]): AllFilter {
  const types = new Set<string>(['Webhook']);
  for (const c of channels) {
    for (const t of c.source.storedEventTypes) types.add(t);
    for (const t of c.releases?.aliasEventTypes ?? []) types.add(t);
    for (const t of c.releases?.releaseEventTypes ?? []) types.add(t);
  }
  return { eventTypePrefixes: [...types] };
}

/** Replays $all through DeliveriesReplay; one line per webhook (only `webhookId`'s with the option). */
export async function auditDeliveries(
  events: Pick<EventStore, 'readAll'>,
  channels: readonly WebhookChannel[],
  options: DeliveriesAuditOptions = {},
): Promise<WebhookAuditLine[]> {
  const replay = new DeliveriesReplay(channels, options);
  for await (const e of events.readAll({ filter: deliveriesAuditFilter(channels) })) replay.apply(e);
  return replay.lines();
}
