import { AppError, assertNever, type Decider, Errors } from '#kernel';
import type { PackId } from '#agent-contract/vocabulary';
import type { CreditsEvent, CreditsGrantor, PaymentProviderName, PurchaseSource } from './credits.events.js';

export interface AutopayPending {
  attemptId: string;
  packId: PackId;
  paymentMethodId: string;
  triggeredAt: string;
}

export type AutopaySetting =
  | { status: 'off'; reason: 'never_enabled' | 'requested' | 'payment_failed' }
  | { status: 'on'; paymentMethodId: string; packId: PackId };

/** A keyed charge not settled yet (kept or refunded). */
export interface OpenCharge {
  meter: string;
  priceCents: number;
}

export interface CreditsState {
  balanceCents: number;
  purchasedCents: number;
  /** Credits the operator granted (no payment); part of the balance like purchases. */
  grantedCents: number;
  /** Every charge, refunded or not (a refund does not undo the count). */
  chargedCents: number;
  charges: number;
  /** Cents given back by refunded keyed charges; part of the balance. */
  refundedCents: number;
  /**
   * Keyed charges awaiting settlement, by charge key: a second charge with an open key is a
   * no-op. Settling removes the key, so this stays as small as the work in flight.
   */
  openCharges: ReadonlyMap<string, OpenCharge>;
  /**
   * References already credited: a second fulfilment of one is a no-op. Grant references are
   * kept prefixed (see grantRef), so a grant never collides with a payment reference.
   */
  paymentRefs: ReadonlySet<string>;
  autopay: AutopaySetting;
  /** At most one autopay top-up is in flight (D19: never two at once). */
  autopayPending: AutopayPending | null;
  /** Reason of the last failed autopay attempt, if any. */
  autopayLastFailure: string | null;
}

export type CreditsCommand =
  | {
      type: 'ChargeMeter';
      accountId: string;
      meter: string;
      priceCents: number;
      requestId: string;
      keyId: string | null;
      /** D19 threshold in force; a charge that leaves the balance under it may trigger autopay. */
      autopayThresholdCents: number;
      /**
       * Makes the id the autopay attempt gets if this charge triggers one (ids come in with the
       * command; a generator, because almost no charge needs one).
       */
      newAutopayAttemptId: () => string;
      /**
       * Makes the charge idempotent by this key (e.g. a webhook delivery attempt): while the key
       * is open, charging it again decides nothing. Settled later with SettleCharge.
       */
      chargeKey?: string;
      now: Date;
    }
  | {
      type: 'SettleCharge';
      accountId: string;
      chargeKey: string;
      /** Give the price back (the paid work failed) rather than keep it. */
      refund: boolean;
      reason?: string;
      now: Date;
    }
  | {
      type: 'PurchaseCredits';
      accountId: string;
      packId: PackId;
      amountCents: number;
      creditsCents: number;
      paymentReference: string;
      provider: PaymentProviderName;
      source: PurchaseSource;
      keyId: string | null;
      autopayAttemptId: string | null;
      now: Date;
    }
  | {
      type: 'GrantCredits';
      accountId: string;
      creditsCents: number;
      reference: string;
      keyId: string;
      grantedBy: CreditsGrantor;
      now: Date;
    }
  | { type: 'EnableAutopay'; accountId: string; paymentMethodId: string; packId: PackId; now: Date }
  | { type: 'DisableAutopay'; accountId: string; now: Date }
  | { type: 'FailAutopay'; accountId: string; attemptId: string; reason: string; now: Date };

/** The charge would take the balance below zero: the HTTP layer turns it into D18's 402. */
export class InsufficientCreditsError extends AppError {
  constructor(
    readonly meter: string,
    readonly requiredCents: number,
    readonly balanceCents: number,
  ) {
    super(
      'payment_required',
      'INSUFFICIENT_CREDITS',
      `The ${meter} call costs ${usd(requiredCents)} USD; the balance is ${usd(balanceCents)} USD.`,
    );
    this.name = 'InsufficientCreditsError';
  }
}

const usd = (cents: number) => (cents / 100).toFixed(2);

/** The most one grant may add: 1,000,000 USD (a typo in an amount should not mint millions). */
export const MAX_GRANT_CENTS = 100_000_000;
export const MAX_GRANT_REFERENCE_LENGTH = 200;

/** How a grant's reference is kept among the payment references (a separate namespace). */
export const grantRef = (reference: string) => `grant:${reference}`;

export const initialCreditsState: CreditsState = Object.freeze({
  balanceCents: 0,
  purchasedCents: 0,
  grantedCents: 0,
  chargedCents: 0,
  charges: 0,
  refundedCents: 0,
  openCharges: new Map<string, OpenCharge>(),
  paymentRefs: new Set<string>(),
  autopay: { status: 'off', reason: 'never_enabled' },
  autopayPending: null,
  autopayLastFailure: null,
}) as CreditsState;

/**
 * The prepaid credits ledger of one account (stream `credits-{account}`). Pure: the ledger
 * service keeps the folded state of hot accounts in memory and appends with the exact revision.
 */
/** The reason of an autopay attempt that failed for the provider's sake, not the card's. */
export const AUTOPAY_PROVIDER_ERROR = 'provider_error';

export const creditsDecider: Decider<CreditsCommand, CreditsEvent, CreditsState> = {
  initialState: initialCreditsState,

  evolve(state, event) {
    switch (event.type) {
      case 'MeterCharged': {
        // The hot path: a small object copy, the reference set and open charges are shared.
        const next = {
          ...state,
          balanceCents: state.balanceCents - event.data.price_cents,
          chargedCents: state.chargedCents + event.data.price_cents,
          charges: state.charges + 1,
        };
        if (event.data.charge_key === undefined) return next;
        const open = new Map(state.openCharges);
        open.set(event.data.charge_key, { meter: event.data.meter, priceCents: event.data.price_cents });
        return { ...next, openCharges: open };
      }
      case 'MeterChargeSettled': {
        const open = new Map(state.openCharges);
        open.delete(event.data.charge_key);
        return {
          ...state,
          balanceCents: state.balanceCents + event.data.refunded_cents,
          refundedCents: state.refundedCents + event.data.refunded_cents,
          openCharges: open,
        };
      }
      case 'CreditsPurchased': {
        const refs = new Set(state.paymentRefs);
        refs.add(event.data.payment_reference);
        const settles =
          state.autopayPending !== null && state.autopayPending.attemptId === event.data.autopay_attempt_id;
        return {
          ...state,
          balanceCents: state.balanceCents + event.data.credits_cents,
          purchasedCents: state.purchasedCents + event.data.credits_cents,
          paymentRefs: refs,
          autopayPending: settles ? null : state.autopayPending,
        };
      }
      case 'CreditsGranted': {
        const refs = new Set(state.paymentRefs);
        refs.add(grantRef(event.data.reference));
        return {
          ...state,
          balanceCents: state.balanceCents + event.data.credits_cents,
          grantedCents: state.grantedCents + event.data.credits_cents,
          paymentRefs: refs,
        };
      }
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
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'ChargeMeter': {
        if (!Number.isInteger(command.priceCents) || command.priceCents < 0)
          throw new Error(`invalid price ${command.priceCents}`);
        const key = command.chargeKey;
        if (key !== undefined) {
          if (key === '') throw new Error('empty charge key');
          // Already charged (a retry after a crash, another dispatcher): not an error.
          if (state.openCharges.has(key)) return [];
        }
        if (state.balanceCents < command.priceCents)
          throw new InsufficientCreditsError(command.meter, command.priceCents, state.balanceCents);
        const charged: CreditsEvent = {
          type: 'MeterCharged',
          data: {
            account_id: command.accountId,
            meter: command.meter,
            price_cents: command.priceCents,
            request_id: command.requestId,
            key_id: command.keyId,
            // Ordinary charges keep their stored shape: no charge_key at all.
            ...(key !== undefined ? { charge_key: key } : {}),
            charged_at: at,
          },
        };
        const after = state.balanceCents - command.priceCents;
        if (state.autopay.status !== 'on' || state.autopayPending !== null || after >= command.autopayThresholdCents)
          return [charged];
        return [
          charged,
          {
            type: 'AutopayTriggered',
            data: {
              account_id: command.accountId,
              attempt_id: command.newAutopayAttemptId(),
              pack_id: state.autopay.packId,
              payment_method_id: state.autopay.paymentMethodId,
              balance_cents: after,
              threshold_cents: command.autopayThresholdCents,
              triggered_at: at,
            },
          },
        ];
      }
      case 'SettleCharge': {
        // Idempotent: settling a key already settled (or never charged) decides nothing.
        const open = state.openCharges.get(command.chargeKey);
        if (!open) return [];
        return [
          {
            type: 'MeterChargeSettled',
            data: {
              account_id: command.accountId,
              charge_key: command.chargeKey,
              meter: open.meter,
              price_cents: open.priceCents,
              refunded_cents: command.refund ? open.priceCents : 0,
              reason: command.reason ?? null,
              settled_at: at,
            },
          },
        ];
      }
      case 'PurchaseCredits': {
        // Idempotent by payment reference: a webhook delivered three times credits once.
        if (state.paymentRefs.has(command.paymentReference)) return [];
        if (!Number.isInteger(command.creditsCents) || command.creditsCents <= 0)
          throw new Error(`invalid credits ${command.creditsCents}`);
        return [
          {
            type: 'CreditsPurchased',
            data: {
              account_id: command.accountId,
              pack_id: command.packId,
              amount_cents: command.amountCents,
              credits_cents: command.creditsCents,
              payment_reference: command.paymentReference,
              provider: command.provider,
              source: command.source,
              key_id: command.keyId,
              autopay_attempt_id: command.autopayAttemptId,
              purchased_at: at,
            },
          },
        ];
      }
      case 'GrantCredits': {
        const details = [];
        if (
          !Number.isInteger(command.creditsCents) ||
          command.creditsCents <= 0 ||
          command.creditsCents > MAX_GRANT_CENTS
        )
          details.push({
            path: 'amount',
            message: `must be more than 0 and at most ${(MAX_GRANT_CENTS / 100).toLocaleString('en-US')} USD`,
          });
        const reference = command.reference.trim();
        if (reference === '' || reference !== command.reference || reference.length > MAX_GRANT_REFERENCE_LENGTH)
          details.push({
            path: 'reference',
            message: `must be 1 to ${MAX_GRANT_REFERENCE_LENGTH} characters, without surrounding spaces`,
          });
        if (details.length) throw Errors.validation(details);
        // Idempotent by reference: an operator repeating a command (a retry, a script run twice) grants once.
        if (state.paymentRefs.has(grantRef(reference))) return [];
        return [
          {
            type: 'CreditsGranted',
            data: {
              account_id: command.accountId,
              credits_cents: command.creditsCents,
              reference,
              key_id: command.keyId,
              granted_by: command.grantedBy,
              granted_at: at,
            },
          },
        ];
      }
      case 'EnableAutopay': {
        const a = state.autopay;
        if (a.status === 'on' && a.paymentMethodId === command.paymentMethodId && a.packId === command.packId)
          return [];
        return [
          {
            type: 'AutopayEnabled',
            data: {
              account_id: command.accountId,
              payment_method_id: command.paymentMethodId,
              pack_id: command.packId,
              enabled_at: at,
            },
          },
        ];
      }
      case 'DisableAutopay':
        if (state.autopay.status === 'off') return [];
        return [
          { type: 'AutopayDisabled', data: { account_id: command.accountId, reason: 'requested', disabled_at: at } },
        ];
      case 'FailAutopay': {
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
      default:
        return assertNever(command);
    }
  },
};

/**
 * How much one event moves the balance, in cents: what `evolve` adds to `balanceCents` (a unit
 * test holds the two together). Lets a reader walk the ledger with a running balance without
 * folding the whole state (GET /billing/ledger).
 */
export function creditsBalanceDelta(event: CreditsEvent): number {
  switch (event.type) {
    case 'CreditsPurchased':
    case 'CreditsGranted':
      return event.data.credits_cents;
    case 'MeterCharged':
      return -event.data.price_cents;
    case 'MeterChargeSettled':
      return event.data.refunded_cents;
    case 'AutopayEnabled':
    case 'AutopayDisabled':
    case 'AutopayTriggered':
    case 'AutopayFailed':
      return 0;
    default:
      return assertNever(event);
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
