import type { PackId } from '#agent-contract';

/** Who took the money: the payment provider of D16. */
export type PaymentProviderName = 'stripe' | 'sandbox';

/** How a purchase came about: a hosted checkout, a direct top-up charge, or autopay (D19). */
export type PurchaseSource = 'checkout' | 'topup' | 'autopay';

/** Who granted credits without a payment: only the operator, from the CLI (ADR 0061). */
export type CreditsGrantor = 'operator';

/**
 * Stored event types of `credits-{account}` streams: the prepaid credits ledger. Names are
 * stable: never rename. Money is integer cents.
 * Balance = purchases + grants − charges + refunds (of settled keyed charges).
 */
export type CreditsEvent =
  | {
      type: 'CreditsPurchased';
      data: {
        account_id: string;
        pack_id: PackId;
        /** What was paid, in cents. */
        amount_cents: number;
        /** Credits granted, in cents. */
        credits_cents: number;
        /** Provider reference the purchase is idempotent by: checkout session id or payment intent id. */
        payment_reference: string;
        provider: PaymentProviderName;
        source: PurchaseSource;
        key_id: string | null;
        /** The autopay attempt this purchase settles, if any. */
        autopay_attempt_id: string | null;
        purchased_at: string;
      };
    }
  | {
      type: 'CreditsGranted';
      data: {
        account_id: string;
        /** Credits granted, in cents (nothing was paid through this service). */
        credits_cents: number;
        /** The operator's reference (a purchase order, a contract): the grant is idempotent by it. */
        reference: string;
        /** The agent key the grant was addressed to. */
        key_id: string;
        granted_by: CreditsGrantor;
        granted_at: string;
      };
    }
  | {
      type: 'MeterCharged';
      data: {
        account_id: string;
        meter: string;
        price_cents: number;
        request_id: string;
        key_id: string | null;
        /**
         * Only on a keyed charge (absent otherwise, as before): the caller's idempotency key, e.g.
         * a webhook delivery attempt. The charge stays open until a MeterChargeSettled.
         */
        charge_key?: string;
        charged_at: string;
      };
    }
  | {
      type: 'MeterChargeSettled';
      data: {
        account_id: string;
        charge_key: string;
        /** Meter and price of the keyed charge being settled. */
        meter: string;
        price_cents: number;
        /** 0 when the charge is kept; its price when refunded (back into the balance). */
        refunded_cents: number;
        reason: string | null;
        settled_at: string;
      };
    }
  | {
      type: 'AutopayEnabled';
      data: { account_id: string; payment_method_id: string; pack_id: PackId; enabled_at: string };
    }
  | {
      type: 'AutopayDisabled';
      data: { account_id: string; reason: 'requested' | 'payment_failed'; disabled_at: string };
    }
  | {
      type: 'AutopayTriggered';
      data: {
        account_id: string;
        attempt_id: string;
        pack_id: PackId;
        payment_method_id: string;
        /** Balance right after the charge that triggered it. */
        balance_cents: number;
        threshold_cents: number;
        triggered_at: string;
      };
    }
  | {
      type: 'AutopayFailed';
      data: { account_id: string; attempt_id: string; reason: string; failed_at: string };
    };

export type CreditsEventType = CreditsEvent['type'];

export const CREDITS_EVENT_TYPES: CreditsEventType[] = [
  'CreditsPurchased',
  'CreditsGranted',
  'MeterCharged',
  'MeterChargeSettled',
  'AutopayEnabled',
  'AutopayDisabled',
  'AutopayTriggered',
  'AutopayFailed',
];

export const CREDITS_STREAM_PREFIX = 'credits-';
export const creditsStream = (accountId: string) => `${CREDITS_STREAM_PREFIX}${accountId}`;
