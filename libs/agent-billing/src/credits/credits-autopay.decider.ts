import type { PackId } from '#agent-contract/vocabulary';
import type { CreditsEvent } from './credits.events.js';
import type { CreditsState } from './credits.state.js';

/** Saves the method and pack autopay tops up with (D19). */
export interface EnableAutopay {
  type: 'EnableAutopay';
  accountId: string;
  paymentMethodId: string;
  packId: PackId;
  now: Date;
}

export interface DisableAutopay {
  type: 'DisableAutopay';
  accountId: string;
  now: Date;
}

/** The payment of the attempt in flight failed (declined, or the provider's fault). */
export interface FailAutopay {
  type: 'FailAutopay';
  accountId: string;
  attemptId: string;
  reason: string;
  now: Date;
}

/** The reason of an autopay attempt that failed for the provider's sake, not the card's. */
export const AUTOPAY_PROVIDER_ERROR = 'provider_error';

/**
 * The top-up a charge triggers (D19): when it leaves the balance under the threshold, a method
 * is saved and no attempt is in flight (never two at once). Null otherwise.
 */
export function autopayTrigger(
  state: CreditsState,
  charge: { accountId: string; autopayThresholdCents: number; newAutopayAttemptId: () => string; now: Date },
  balanceAfterCents: number,
): CreditsEvent | null {
  if (state.autopay.status !== 'on' || state.autopayPending !== null) return null;
  if (balanceAfterCents >= charge.autopayThresholdCents) return null;
  return {
    type: 'AutopayTriggered',
    data: {
      account_id: charge.accountId,
      attempt_id: charge.newAutopayAttemptId(),
      pack_id: state.autopay.packId,
      payment_method_id: state.autopay.paymentMethodId,
      balance_cents: balanceAfterCents,
      threshold_cents: charge.autopayThresholdCents,
      triggered_at: charge.now.toISOString(),
    },
  };
}

export function decideEnableAutopay(command: EnableAutopay, state: CreditsState): CreditsEvent[] {
  const a = state.autopay;
  if (a.status === 'on' && a.paymentMethodId === command.paymentMethodId && a.packId === command.packId) return [];
  return [
    {
      type: 'AutopayEnabled',
      data: {
        account_id: command.accountId,
        payment_method_id: command.paymentMethodId,
        pack_id: command.packId,
        enabled_at: command.now.toISOString(),
      },
    },
  ];
}

export function decideDisableAutopay(command: DisableAutopay, state: CreditsState): CreditsEvent[] {
  if (state.autopay.status === 'off') return [];
  return [
    {
      type: 'AutopayDisabled',
      data: { account_id: command.accountId, reason: 'requested', disabled_at: command.now.toISOString() },
    },
  ];
}

export function decideFailAutopay(command: FailAutopay, state: CreditsState): CreditsEvent[] {
  const at = command.now.toISOString();
  // Only the attempt in flight can fail; a late or repeated report changes nothing.
  if (state.autopayPending?.attemptId !== command.attemptId) return [];
  const failed: CreditsEvent = {
    type: 'AutopayFailed',
    data: { account_id: command.accountId, attempt_id: command.attemptId, reason: command.reason, failed_at: at },
  };
  // A declined method is not retried on every later call: autopay stops until re-enabled.
  // A provider error (outage, timeout) says nothing about the card: autopay stays on, and
  // the next charge under the threshold tries again.
  if (state.autopay.status !== 'on' || command.reason === AUTOPAY_PROVIDER_ERROR) return [failed];
  return [
    failed,
    {
      type: 'AutopayDisabled',
      data: { account_id: command.accountId, reason: 'payment_failed', disabled_at: at },
    },
  ];
}

type AutopayEvent = Extract<
  CreditsEvent,
  { type: 'AutopayEnabled' | 'AutopayDisabled' | 'AutopayTriggered' | 'AutopayFailed' }
>;

export function evolveAutopay(state: CreditsState, event: AutopayEvent): CreditsState {
  switch (event.type) {
    case 'AutopayEnabled':
      return {
        ...state,
        autopay: { status: 'on', paymentMethodId: event.data.payment_method_id, packId: event.data.pack_id },
      };
    case 'AutopayDisabled':
      return { ...state, autopay: { status: 'off', reason: event.data.reason } };
    case 'AutopayTriggered':
      return {
        ...state,
        autopayPending: {
          attemptId: event.data.attempt_id,
          packId: event.data.pack_id,
          paymentMethodId: event.data.payment_method_id,
          triggeredAt: event.data.triggered_at,
        },
      };
    case 'AutopayFailed':
      return {
        ...state,
        autopayPending: state.autopayPending?.attemptId === event.data.attempt_id ? null : state.autopayPending,
        autopayLastFailure: event.data.reason,
      };
  }
}

/** The view of the state the API shows (status, billing responses). */
export function autopayView(state: CreditsState): Record<string, unknown> {
  const a = state.autopay;
  return {
    enabled: a.status === 'on',
    pack_id: a.status === 'on' ? a.packId : null,
    payment_method_id: a.status === 'on' ? a.paymentMethodId : null,
    disabled_reason: a.status === 'off' && a.reason !== 'never_enabled' ? a.reason : null,
    last_failure: state.autopayLastFailure,
    pending: state.autopayPending
      ? {
          attempt_id: state.autopayPending.attemptId,
          pack_id: state.autopayPending.packId,
          triggered_at: state.autopayPending.triggeredAt,
        }
      : null,
  };
}
