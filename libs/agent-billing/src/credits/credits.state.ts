import type { PackId } from '#agent-contract/vocabulary';

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
