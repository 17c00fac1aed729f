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

export type BeforeSendDecision = { send: true } | { send: false; error: string };

/**
 * The seam for a channel's own policy around each push, e.g. the agent surface's
 * `deliver.workspace.webhook` meter: charge in `beforeSend` (idempotent by `attemptKey`), and
 * refuse with `{send: false, error: 'insufficient_credits'}` to record a failed attempt without
 * sending (it follows the retry schedule like any failure). `afterAttempt` sees the outcome
 * (refund a charge for a failed push, count usage, ...). A hook that throws leaves the attempt
 * unmade and unrecorded; it is tried again on the next pass.
 */
export interface DeliveryHooks {
  beforeSend?(attempt: AttemptContext): Promise<BeforeSendDecision>;
  afterAttempt?(attempt: AttemptContext, outcome: AttemptOutcome): Promise<void>;
}
