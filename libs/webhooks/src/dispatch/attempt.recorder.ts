import { decideAndAppend, type EventStore, WrongExpectedRevisionError } from '#eventstore';
import {
  type AttemptOutcome,
  deliveryDecider,
  type DeliveryRef,
  type DeliveryState,
} from '../engine/delivery.decider.js';
import { type DeliveryAttemptData, deliveryStream } from '../engine/delivery.events.js';
import type { DeliveryDoc } from '../engine/webhooks.projection.js';

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
  ) {}

  async record(
    doc: DeliveryDoc,
    revision: number,
    attempt: { manual: boolean; startedAt: Date; completedAt: Date; outcome: AttemptOutcome },
  ): Promise<RecordedAttempt> {
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
      startedAt: attempt.startedAt,
      completedAt: attempt.completedAt,
      outcome: attempt.outcome,
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
      // on top of the stream as it is now.
      const result = await decideAndAppend(this.events, stream, deliveryDecider, command, { retries: 10 });
      return {
        data: result.events[0]!.data as DeliveryAttemptData,
        revision: result.revision ?? revision,
        position: result.position ?? 0,
      };
    }
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
