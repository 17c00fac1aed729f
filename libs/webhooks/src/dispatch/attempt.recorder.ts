import { decideAndAppend, type EventStore, WrongExpectedRevisionError } from '#eventstore';
import {
  type AttemptOutcome,
  deliveryDecider,
  type DeliveryRef,
  type DeliveryState,
} from '../engine/delivery.decider.js';
import {
  type DeliveriesReleasedEvent,
  type DeliveryAttemptData,
  deliveryReleaseStream,
  deliveryStream,
} from '../engine/delivery.events.js';
import type { DeliveryDoc } from '../engine/webhook-docs.js';

const RECORD_BATCH = 128;
const RECORD_WINDOW_MS = 5;

export interface RecordedAttempt {
  data: DeliveryAttemptData;
  /** The delivery stream's revision and global position after the append. */
  revision: number;
  position: number;
}

/**
 * Appends each attempt's outcome to its delivery stream (`webhookdelivery-{id}`) with the
 * revision the document reflected. Appends that start within a few ms of each other are issued
 * in the same tick, so the store commits them in one group (one fsync on SQLite) and the
 * projection reads them as one batch, instead of one commit per answer.
 */
export class AttemptRecorder {
  private readonly pending: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly channel: string,
    /** SVC_WEBHOOK_RETRY_SCALE: the retry schedule's scale (1 but in tests). */
    private readonly retryScale = 1,
  ) {}

  /** Null when the stream holds this attempt already (recorded by the next holder of its lease). */
  async record(
    doc: DeliveryDoc,
    revision: number,
    attempt: { manual: boolean; startedAt: Date; completedAt: Date; outcome: AttemptOutcome },
  ): Promise<RecordedAttempt | null> {
    const delivery: DeliveryRef = {
      deliveryId: doc.id,
      webhookId: doc.webhook_id,
      channel: this.channel,
      eventId: doc.event_id,
      eventType: doc.event_type,
    };
    const command = {
      type: 'RecordAttempt' as const,
      delivery,
      kind: attempt.manual ? ('manual' as const) : ('automatic' as const),
      requestId: doc.manual_request_id,
      ...(attempt.manual ? {} : { automaticRank: doc.automatic_attempts + 1 }),
      startedAt: attempt.startedAt,
      completedAt: attempt.completedAt,
      outcome: attempt.outcome,
      retryScale: this.retryScale,
    };
    const state: DeliveryState = {
      attempts: doc.attempt_count,
      automaticAttempts: doc.automatic_attempts,
      succeeded: doc.state === 'succeeded',
      final: null,
      pendingRequest: doc.manual_request_id,
    };
    const stream = deliveryStream(doc.id);
    const events = deliveryDecider.decide(command, state);
    try {
      const result = await this.coalesced(() =>
        this.events.append(stream, events, revision === -1 ? 'no_stream' : revision),
      );
      return {
        data: events[0]!.data as DeliveryAttemptData,
        revision: result.nextExpectedRevision,
        position: result.position,
      };
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      // Something was appended meanwhile (a redelivery request): the attempt happened, record it
      // on top of the stream as it is now, unless the stream holds it already (ADR 0070: null).
      const result = await decideAndAppend(this.events, stream, deliveryDecider, command, { retries: 10 });
      if (result.events.length === 0) return null;
      return {
        data: result.events[0]!.data as DeliveryAttemptData,
        revision: result.revision ?? revision,
        position: result.position ?? 0,
      };
    }
  }

  /**
   * Records that the owner could not pay for this push (not an attempt). Null when the stream
   * moved meanwhile or there is nothing to hold: the delivery is looked at again.
   */
  async hold(
    doc: DeliveryDoc,
    revision: number,
    hold: { ownerId: string; reason: string; manual: boolean; now: Date },
  ): Promise<{ revision: number; position: number } | null> {
    const events = deliveryDecider.decide(
      {
        type: 'HoldDelivery',
        delivery: {
          deliveryId: doc.id,
          webhookId: doc.webhook_id,
          channel: this.channel,
          eventId: doc.event_id,
          eventType: doc.event_type,
        },
        ownerId: hold.ownerId,
        reason: hold.reason,
        kind: hold.manual ? 'manual' : 'automatic',
        requestId: doc.manual_request_id,
        now: hold.now,
      },
      {
        attempts: doc.attempt_count,
        automaticAttempts: doc.automatic_attempts,
        succeeded: doc.state === 'succeeded',
        final: doc.state === 'failed' ? 'exhausted' : null,
        pendingRequest: doc.manual_request_id,
      },
    );
    if (events.length === 0) return null;
    try {
      const result = await this.events.append(deliveryStream(doc.id), events, revision === -1 ? 'no_stream' : revision);
      return { revision: result.nextExpectedRevision, position: result.position };
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) return null;
      throw error;
    }
  }

  /** Every held delivery of the owner becomes due again. */
  async release(ownerId: string, reason: string, now: Date): Promise<number> {
    const event: DeliveriesReleasedEvent = {
      type: 'WebhookDeliveriesReleased',
      data: { channel: this.channel, owner_id: ownerId, reason, released_at: now.toISOString() },
    };
    const result = await this.events.append(deliveryReleaseStream(this.channel, ownerId), [event], 'any');
    return result.position;
  }

  private coalesced<T>(append: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push(() => void append().then(resolve, reject));
      if (this.pending.length >= RECORD_BATCH) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), RECORD_WINDOW_MS);
    });
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const start of this.pending.splice(0)) start();
  }
}
