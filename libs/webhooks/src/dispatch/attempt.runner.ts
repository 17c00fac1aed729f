import type { Clock } from '#kernel';
import type { EventStore } from '#eventstore';
import type { ReadonlyCollection } from '#projections';
import type { WebhookChannel } from '../engine/channel.js';
import { type AttemptOutcome, OUTCOME_UNKNOWN } from '../engine/delivery.decider.js';
import { type DeliveryAttemptData, deliveryStream } from '../engine/delivery.events.js';
import { deliveryHeaders } from '../engine/signing.js';
import type { DeliveryDoc } from '../engine/webhook-docs.js';
import type { WebhookSender } from '../sending/webhook-sender.js';
import { isOpenAttempt, nextAttemptKey, parseAttemptKey } from './attempt-keys.js';
import type { AttemptRecorder } from './attempt.recorder.js';
import type { DeliveryInputs } from './delivery-inputs.reader.js';
import type { AttemptContext, DeliveryHooks } from './delivery-hooks.js';
import type { AttemptLease, DeliveryLeases } from './leases.js';
import type { WebhookDisabler } from './webhook.disabler.js';

/** What the dispatcher learns from an attempt. */
export interface AttemptNotes {
  /** The delivery stream is at this revision (recorded here, or found ahead of the read model). */
  recorded(deliveryId: string, revision: number): void;
  /** An event was appended at this position: the read model must pass it. */
  appended(position: number): void;
  attempted(succeeded: boolean): void;
}

/**
 * One attempt of one delivery (D12–D14): checks it is still due and its webhook active, takes a
 * lease on that very attempt marked as sending (two dispatchers never send one attempt; one
 * write, ADR 0086), checks the delivery stream is at the revision the read model reflects (a
 * read model behind never causes a resend), signs and sends, records the outcome, and disables
 * the webhook after its final failure. A path that sends nothing gives the lease and its mark
 * back. An attempt an earlier holder marked and never recorded is recorded with an unknown
 * outcome instead of being sent again (ADR 0070).
 */
/** What an AttemptRunner works with: the channel, its stores and sender, and its helpers. */
export interface AttemptRunnerOptions {
  channel: WebhookChannel;
  events: EventStore;
  clock: Clock;
  sender: WebhookSender;
  leases: DeliveryLeases;
  /** Asked before each send: false = this process must not send now (ADR 0067). */
  mayAct?: () => boolean;
  hooks?: DeliveryHooks;
  /** Lease time of one attempt (real ms). */
  leaseMs: number;
  inputs: DeliveryInputs;
  recorder: AttemptRecorder;
  disabler: WebhookDisabler;
  logger: { warn(message: string): void };
  notes: AttemptNotes;
  /** The channel's deliveries read model: a queued document is checked against it before a send. */
  deliveries: Pick<ReadonlyCollection<DeliveryDoc>, 'get'>;
}

export class AttemptRunner {
  private readonly channel: WebhookChannel;
  private readonly deps: Pick<AttemptRunnerOptions, 'events' | 'clock' | 'sender' | 'leases' | 'mayAct' | 'hooks'>;
  private readonly leaseMs: number;
  private readonly inputs: DeliveryInputs;
  private readonly recorder: AttemptRecorder;
  private readonly disabler: WebhookDisabler;
  private readonly logger: { warn(message: string): void };
  private readonly notes: AttemptNotes;
  private readonly deliveries: Pick<ReadonlyCollection<DeliveryDoc>, 'get'>;

  constructor(options: AttemptRunnerOptions) {
    this.channel = options.channel;
    this.deps = options;
    this.leaseMs = options.leaseMs;
    this.inputs = options.inputs;
    this.recorder = options.recorder;
    this.disabler = options.disabler;
    this.logger = options.logger;
    this.notes = options.notes;
    this.deliveries = options.deliveries;
  }

  /** `releaseHost` frees the host's slot once the HTTP exchange is over (recording does not hold it). */
  async run(doc: DeliveryDoc, releaseHost: () => void, stopping: () => boolean): Promise<void> {
    if (stopping()) return;
    const webhook = await this.inputs.webhook(doc.webhook_id);
    if (!webhook || webhook.status === 'deleted') return;
    const manual = doc.manual_request_id !== null;
    const now = this.deps.clock.now();
    if (!manual) {
      // Automatic attempts stop when the webhook is disabled (D12); redeliveries asked for still go.
      if (doc.state !== 'pending' || webhook.status !== 'active' || this.disabler.disabledHere(webhook)) return;
      if (doc.next_attempt_at === null || Date.parse(doc.next_attempt_at) > now.getTime()) return;
    }
    // Its secret could not be read a moment ago: the delivery waits, untouched (not an attempt).
    if (this.inputs.secretWaiting(webhook.secret_id)) return;
    const attemptKey = nextAttemptKey(doc);
    // Taken marked as sending, in one write (ADR 0086): every check below runs under the mark, and
    // a path that sends nothing gives the lease back, mark and all. A holder killed before sending
    // leaves the mark: its attempt is then recorded with an unknown outcome, never sent twice.
    const lease = await this.deps.leases.claim(attemptKey, this.leaseMs, now);
    if (!lease) return;
    const claimedAt = performance.now();
    let sent = false;
    try {
      const revision = (await this.deps.events.streamRevision(deliveryStream(doc.id))) ?? -1;
      if (revision !== doc.revision) {
        // The read model is behind this delivery's stream: decide again once it caught up.
        this.notes.recorded(doc.id, revision);
        return;
      }
      if (!manual) {
        // The document may have waited in the queue while its webhook was disabled (which cancels
        // its pending deliveries without touching their streams) and re-enabled: the webhook reads
        // active again, but the delivery stays cancelled. Only what the read model says now counts.
        const current = await this.deliveries.get(doc.id);
        if (!current || current.state !== 'pending' || current.revision !== doc.revision) return;
      }
      const context = this.context(doc, manual, attemptKey);
      // Not the channel's owner any more (ADR 0067): nothing charged, nothing sent.
      if (this.deps.mayAct && !this.deps.mayAct()) return;
      if (lease.interruptedSendAt !== null) {
        // A holder before this one may have sent this very attempt and stopped before recording
        // it (its process was killed): the receiver may have it. Recorded with an unknown outcome
        // (a failure: the schedule goes on), never sent twice (ADR 0070).
        sent = true;
        await this.recordUnknown(doc, revision, context, lease, lease.interruptedSendAt);
        return;
      }
      const [body, secret] = await Promise.all([this.inputs.body(doc.event_id), this.inputs.secret(webhook)]);
      if (!body || !secret) {
        if (!body) this.logger.warn(`dispatcher ${this.channel.name}: delivery ${doc.id} skipped: payload missing`);
        return;
      }
      const decision = (await this.deps.hooks?.beforeSend?.(context)) ?? { send: true as const };
      if ('hold' in decision) {
        await this.hold(doc, revision, context, decision.hold);
        return;
      }
      // The last look before the request leaves: a process that lost the channel (paused past
      // its lease) sends nothing; its attempt lease is given back and the new owner sends it.
      if (this.deps.mayAct && !this.deps.mayAct()) return;
      // The sender needs at least half the TTL (at least the send timeout) left: checks that took
      // longer (a stalled store or hook) give the lease back, and a later pass sends.
      if (performance.now() - claimedAt > this.leaseMs / 2) return;
      const startedAt = this.deps.clock.now();
      sent = true;
      const outcome: AttemptOutcome = decision.send
        ? await this.deps.sender.send({
            url: webhook.url,
            body,
            headers: deliveryHeaders(
              secret,
              { id: doc.id, eventType: doc.event_type },
              Math.floor(startedAt.getTime() / 1000),
              body,
            ),
          })
        : { statusCode: null, durationMs: 0, error: decision.error, responseBody: null, succeeded: false };
      const completedAt = this.deps.clock.now();
      releaseHost();
      // Once sent, the lease is kept: if recording fails, nobody resends it.
      await this.finish(doc, revision, context, lease, { manual, startedAt, completedAt, outcome });
    } finally {
      if (!sent) await this.deps.leases.release(lease).catch(() => undefined);
    }
  }

  /**
   * An attempt listed by `DeliveryLeases.interrupted`: sent by a holder that stopped before
   * recording it. Recorded with an unknown outcome whatever the delivery's state now (a disable
   * may have cancelled it meanwhile, so it is not due any more and `run` never sees it again),
   * unless there is nothing to record (`settleOnly`): then it is only settled, and the mark goes.
   */
  async recover(doc: DeliveryDoc, key: string): Promise<void> {
    const lease = await this.deps.leases.claim(key, this.leaseMs);
    if (!lease) return;
    let done = false;
    try {
      // Taken, sent and recorded by someone else since it was listed: a fresh lease, nothing to do.
      if (lease.interruptedSendAt === null) return;
      const revision = (await this.deps.events.streamRevision(deliveryStream(doc.id))) ?? -1;
      if (revision !== doc.revision) {
        // The read model is behind this delivery's stream: looked at again on a later pass.
        this.notes.recorded(doc.id, revision);
        return;
      }
      if (this.deps.mayAct && !this.deps.mayAct()) return;
      const named = parseAttemptKey(key);
      const context = this.context(doc, named.manual, key);
      const settleOnly = await this.settleOnly(doc, key, named);
      if (settleOnly) {
        // Nothing (more) to record: settle it with the hooks (idempotent per attempt) and drop the
        // mark. A settle that fails leaves the mark for a later pass.
        await this.deps.hooks?.afterAttempt?.(context, settleOnly);
        done = true;
        await this.deps.leases.complete(lease);
        return;
      }
      done = true;
      await this.recordUnknown(doc, revision, context, lease, lease.interruptedSendAt);
    } finally {
      if (!done) await this.deps.leases.release(lease).catch(() => undefined);
    }
  }

  private context(doc: DeliveryDoc, manual: boolean, attemptKey: string): AttemptContext {
    return {
      channel: this.channel.name,
      owner: { kind: this.channel.ownerKind, id: doc.owner_id },
      webhookId: doc.webhook_id,
      deliveryId: doc.id,
      eventId: doc.event_id,
      eventType: doc.event_type,
      kind: manual ? 'manual' : 'automatic',
      attemptKey,
    };
  }

  /** An attempt sent at `sentAt` by a holder that stopped before recording it: a failure of unknown outcome. */
  private recordUnknown(
    doc: DeliveryDoc,
    revision: number,
    context: AttemptContext,
    lease: AttemptLease,
    sentAt: number,
  ): Promise<void> {
    return this.finish(doc, revision, context, lease, {
      manual: context.kind === 'manual',
      startedAt: new Date(sentAt),
      completedAt: this.deps.clock.now(),
      outcome: OUTCOME_UNKNOWN,
    });
  }

  /**
   * Records the attempt, settles it with the hooks and then completes its lease, and disables
   * the webhook after its final failure.
   */
  private async finish(
    doc: DeliveryDoc,
    revision: number,
    context: AttemptContext,
    lease: AttemptLease,
    attempt: { manual: boolean; startedAt: Date; completedAt: Date; outcome: AttemptOutcome },
  ): Promise<void> {
    const recorded = await this.recorder.record(doc, revision, attempt);
    if (!recorded) {
      await this.complete(lease);
      // This sender outlived its lease and the next holder recorded the attempt (outcome unknown)
      // and settled it meanwhile: one record per attempt, the later outcome only in this log line.
      this.logger.warn(
        `dispatcher ${this.channel.name}: attempt ${lease.key} was recorded meanwhile as outcome unknown; its outcome (${attempt.outcome.statusCode ?? attempt.outcome.error}) is not recorded`,
      );
      return;
    }
    // Only the delivery's revision is noted, not the position for the next refill to wait for:
    // a refill that reads this delivery before the model has its record skips it by that revision
    // (and a send needs the stream at the read revision anyway), so waiting on every record only
    // stalled the refills behind the projection.
    this.notes.recorded(doc.id, recorded.revision);
    this.notes.attempted(attempt.outcome.succeeded);
    // After the record: a crash before it leaves this attempt to be recorded by the next holder
    // of its lease (same attemptKey), so a hook settling per attempt never settles one twice nor
    // one that did not happen. The lease is completed only once the hook ran: a crash (or a hook
    // failing) in between leaves the mark, and the recovery settles the recorded attempt.
    const settled = await Promise.resolve(this.deps.hooks?.afterAttempt?.(context, attempt.outcome)).then(
      () => true,
      (error: unknown) => {
        this.logger.warn(`dispatcher ${this.channel.name}: afterAttempt hook failed for ${doc.id}: ${message(error)}`);
        return false;
      },
    );
    if (settled) await this.complete(lease);
    const attempted = recorded.data;
    if (attempted.final) {
      await this.disabler.disable({
        webhookId: attempted.webhook_id,
        deliveryId: attempted.delivery_id,
        reason: attempted.final === 'gone' ? 'gone' : 'delivery_failed',
        statusCode: attempted.status_code,
        startedAt: attempted.started_at,
      });
    }
  }

  /** A complete that fails leaves the mark: a later recovery finds the attempt recorded and settles it again (a no-op). */
  private async complete(lease: AttemptLease): Promise<void> {
    await this.deps.leases.complete(lease).catch((error: unknown) => {
      this.logger.warn(`dispatcher ${this.channel.name}: lease of ${lease.key} not completed: ${message(error)}`);
    });
  }

  /**
   * The outcome to settle an interrupted attempt with when it is not to be recorded: recorded
   * already (its holder stopped between the record and settling it: the recorded outcome); no
   * longer open without a record (a redelivery request the webhook's delete or disable cancelled
   * after it was sent) or its webhook deleted (nothing to record it on): an unknown outcome, so a
   * metered push is refunded. Null: record it as an unknown outcome.
   */
  private async settleOnly(
    doc: DeliveryDoc,
    key: string,
    named: ReturnType<typeof parseAttemptKey>,
  ): Promise<AttemptOutcome | null> {
    if (!isOpenAttempt(doc, key)) {
      const recorded = await this.recordedAttempt(named);
      return recorded ? outcomeOf(recorded) : OUTCOME_UNKNOWN;
    }
    const webhook = await this.inputs.webhook(doc.webhook_id);
    return !webhook || webhook.status === 'deleted' ? OUTCOME_UNKNOWN : null;
  }

  /** The recorded attempt a lease key names, from the delivery's stream. */
  private async recordedAttempt(named: ReturnType<typeof parseAttemptKey>): Promise<DeliveryAttemptData | null> {
    for await (const event of this.deps.events.readStream(deliveryStream(named.deliveryId))) {
      if (event.type !== 'WebhookDeliveryAttempted') continue;
      const d = event.data as DeliveryAttemptData;
      if (named.manual ? d.manual && d.request_id === named.requestId : d.automatic === named.rank) return d;
    }
    return null;
  }

  /**
   * The owner cannot pay: WebhookDeliveryHeld instead of an attempt. Then, if the owner can pay
   * after all (credits arrived between the refusal and the hold: their release may have passed
   * before the hold and found nothing), release the owner's holds at once.
   */
  private async hold(doc: DeliveryDoc, revision: number, context: AttemptContext, reason: string): Promise<void> {
    const held = await this.recorder.hold(doc, revision, {
      ownerId: doc.owner_id,
      reason,
      manual: context.kind === 'manual',
      now: this.deps.clock.now(),
    });
    if (!held) return;
    this.notes.recorded(doc.id, held.revision);
    this.notes.appended(held.position);
    if (await this.deps.hooks?.afterHold?.(context)) {
      this.notes.appended(await this.recorder.release(doc.owner_id, 'credits_available', this.deps.clock.now()));
    }
  }
}

function outcomeOf(d: DeliveryAttemptData): AttemptOutcome {
  return {
    statusCode: d.status_code,
    durationMs: d.duration_ms,
    error: d.error,
    responseBody: d.response_body,
    succeeded: d.succeeded,
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
