import type { AttemptOutcome } from '../engine/delivery.decider.js';
import type { WebhookOwner } from '../engine/channel.js';

/** One attempt about to be made (or just made) by the dispatcher. */
export interface AttemptContext {
  channel: string;
  owner: WebhookOwner;
  webhookId: string;
  deliveryId: string;
  eventId: string;
  eventType: string;
  kind: 'automatic' | 'manual';
  /**
   * Stable for this attempt across dispatchers and retries of the hook (`{delivery}:a{n}` or
   * `{delivery}:m{request}`): the idempotency key of a meter charge for it.
   */
  attemptKey: string;
}

/**
 * - `send`: go on;
 * - `error`: record a failed attempt without sending (it follows the retry schedule);
 * - `hold`: the owner cannot pay: record WebhookDeliveryHeld instead of an attempt; the delivery
 *   leaves the schedule until the owner's holds are released (the channel's ReleaseSource, or
 *   `afterHold` answering true).
 */
export type BeforeSendDecision = { send: true } | { send: false; error: string } | { send: false; hold: string };

/**
 * The seam for a channel's own policy around each push, e.g. the agent surface's
 * `deliver.workspace.webhook` meter: charge in `beforeSend` (idempotent by `attemptKey`: the
 * same attempt tried again after a crash must not charge twice), or hold when the owner cannot
 * pay. `afterHold` runs once the hold is recorded: answer true when the owner can pay after all
 * (credits that arrived between the refusal and the hold, which a release already passed) and
 * the owner's held deliveries are released at once. `afterAttempt` runs once the attempt is
 * recorded and sees its outcome (settle the charge: keep it, or refund a failed push). A
 * `beforeSend` that throws leaves the attempt unmade and unrecorded; it is tried again on the
 * next pass. An `afterAttempt` that throws is logged (the attempt stands).
 */
export interface DeliveryHooks {
  beforeSend?(attempt: AttemptContext): Promise<BeforeSendDecision>;
  afterHold?(attempt: AttemptContext): Promise<boolean>;
  afterAttempt?(attempt: AttemptContext, outcome: AttemptOutcome): Promise<void>;
}
