/**
 * The retry schedule's rules that `svc audit deliveries` checks (D12, ADR 0064).
 *
 * The checks, per automatic attempt (manual redeliveries are outside the schedule):
 * - `early`: started before it was due, by more than the tolerance. Attempt 1 is due when the
 *   event was created; attempt n+1 at the end of failed automatic attempt n (its started_at +
 *   duration_ms) + 1 min, 5 min, 30 min, 2 h. Recomputed from the attempts' own times, not from
 *   their recorded next_attempt_at. A hold only delays.
 * - `too_many`: a sixth (or later) automatic attempt of one delivery.
 * - `while_disabled`: started after its webhook was disabled (or deleted) and before a re-enable.
 * - `not_due`: started after the delivery stopped being due (it had succeeded, failed for good,
 *   or been cancelled by a disable that a re-enable then lifted); the more specific rules above
 *   win over it.
 * Times are the ones the events carry (started_at, disabled_at, ...). The tolerance, 1 s, covers
 * the clocks of several dispatchers and the milliseconds between the end of a transfer and its
 * record; the engine itself is never early by design.
 */
import type { DeliveryAttemptData } from '../engine/delivery.events.js';
import { MAX_AUTOMATIC_ATTEMPTS, retryDelayAfter } from '../engine/retry-schedule.js';
import type { DeliveryStatus } from '../engine/webhook-docs.js';

export const SCHEDULE_TOLERANCE_MS = 1000;

export type BreakRule = 'early' | 'too_many' | 'while_disabled' | 'not_due';

export interface ScheduleBreak {
  delivery_id: string;
  /** The attempt's number among all of the delivery's attempts, as recorded. */
  attempt: number;
  /** Its rank among the delivery's automatic attempts, counted by the replay. */
  automatic: number;
  rule: BreakRule;
  started_at: string;
  /** `early`: when it was due; `while_disabled`: when the webhook was disabled; else null. */
  due_at: string | null;
  detail: string;
}

/** Where a delivery stands in the schedule (what the checks need of it). */
export interface DeliverySchedule {
  state: DeliveryStatus;
  /** Automatic attempts recorded so far. */
  automatic: number;
  /** When the next automatic attempt is due (ms); null when none is. */
  dueMs: number | null;
  /** When it stopped being due (ms): finished, or cancelled; null while due. */
  closedMs: number | null;
}

/** What the checks need of the webhook: since when it is disabled or deleted (ms), null while active. */
export interface WebhookSchedule {
  disabledMs: number | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The breaks of one automatic attempt, given the delivery and webhook as they stood when it was
 * recorded (pure).
 */
export function automaticAttemptBreaks(
  delivery: DeliverySchedule,
  webhook: WebhookSchedule,
  attempt: Pick<DeliveryAttemptData, 'delivery_id' | 'number' | 'started_at'>,
  toleranceMs = SCHEDULE_TOLERANCE_MS,
): ScheduleBreak[] {
  const rank = delivery.automatic + 1;
  const started = Date.parse(attempt.started_at);
  const base = {
    delivery_id: attempt.delivery_id,
    attempt: attempt.number,
    automatic: rank,
    started_at: attempt.started_at,
  };
  const out: ScheduleBreak[] = [];
  if (rank > MAX_AUTOMATIC_ATTEMPTS)
    out.push({
      ...base,
      rule: 'too_many',
      due_at: null,
      detail: `automatic attempt ${rank}: at most ${MAX_AUTOMATIC_ATTEMPTS} are made`,
    });
  if (webhook.disabledMs !== null && started >= webhook.disabledMs + toleranceMs)
    out.push({
      ...base,
      rule: 'while_disabled',
      due_at: iso(webhook.disabledMs),
      detail: `automatic attempt ${rank} started while its webhook was disabled`,
    });
  if (delivery.dueMs !== null && started < delivery.dueMs - toleranceMs)
    out.push({
      ...base,
      rule: 'early',
      due_at: iso(delivery.dueMs),
      detail: `automatic attempt ${rank} started ${Math.round((delivery.dueMs - started) / 1000)} s before it was due`,
    });
  if (
    out.length === 0 &&
    delivery.dueMs === null &&
    delivery.closedMs !== null &&
    started >= delivery.closedMs + toleranceMs
  )
    out.push({
      ...base,
      rule: 'not_due',
      due_at: null,
      detail: `automatic attempt ${rank} started after the delivery was ${delivery.state}`,
    });
  return out;
}

/**
 * The schedule after an attempt (pure): its outcome moves the delivery as the webhooks
 * projection does; a failed automatic attempt makes the next one due.
 */
export function afterAttempt(
  delivery: DeliverySchedule,
  attempt: Pick<DeliveryAttemptData, 'automatic' | 'started_at' | 'duration_ms' | 'succeeded' | 'final'>,
  retryScale = 1,
): DeliverySchedule {
  const end = Date.parse(attempt.started_at) + Math.max(0, attempt.duration_ms || 0);
  const automatic = attempt.automatic !== null ? delivery.automatic + 1 : delivery.automatic;
  let { state, dueMs, closedMs } = delivery;
  // Nothing more is due from here (a delivery already closed keeps the time it closed).
  const close = () => {
    if (dueMs !== null) closedMs = end;
    dueMs = null;
  };
  if (state === 'held') state = 'pending';
  if (attempt.succeeded) {
    state = 'succeeded';
    close();
  } else if (attempt.final) {
    if (state !== 'succeeded') state = 'failed';
    close();
  } else if (attempt.automatic !== null && state === 'pending') {
    const delay = retryDelayAfter(automatic, retryScale);
    if (delay === null) close();
    else dueMs = end + delay;
  }
  return { state, automatic, dueMs, closedMs };
}
