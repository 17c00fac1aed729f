import { AppError, Errors } from '#kernel';
import type { CreditPack } from '#agent-contract';
import type { CheckoutPurpose } from '../accounts/agent-account.events.js';
import type { PaymentProviderName } from '../credits/credits.events.js';

/**
 * The payment-provider port (D16). Adapters: Stripe (STRIPE_SECRET_KEY set) and the sandbox
 * (default), whose hosted checkout page this service serves itself so the flow runs offline.
 * Fulfilment never trusts a redirect: credits are granted by PaymentFulfilment, called from the
 * signed Stripe webhook or from the sandbox's own Pay button.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  createCustomer(request: { accountId: string; email: string | null }): Promise<{ customerId: string }>;
  createSetupIntent(request: { accountId: string; customerId: string }): Promise<SetupIntentResult>;
  /** Attaches a confirmed payment method to the customer (no-op when attached already). */
  attachPaymentMethod(request: {
    customerId: string;
    paymentMethodId: string;
    setupIntentId?: string;
  }): Promise<PaymentMethodInfo>;
  /** Charges a saved method off-session, idempotent by `idempotencyKey`. Declines are outcomes, not throws. */
  chargeOffSession(request: OffSessionCharge): Promise<ChargeOutcome>;
}

export const PAYMENT_PROVIDER = Symbol('PAYMENT_PROVIDER');

export interface CheckoutSessionRequest {
  /** Null for an unbound checkout (no key yet): fulfilment opens the account. */
  accountId: string | null;
  keyId: string | null;
  pack: CreditPack;
  purpose: CheckoutPurpose;
  objective: string | null;
  source: string | null;
  email: string | null;
  /** Public origin of this service (links back to it). */
  baseUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
  expiresAt: string | null;
}

export interface SetupIntentResult {
  id: string;
  clientSecret: string;
  status: string;
}

export interface PaymentMethodInfo {
  id: string;
  brand: string | null;
  last4: string | null;
  expMonth: number | null;
  expYear: number | null;
}

export interface OffSessionCharge {
  accountId: string;
  customerId: string;
  paymentMethodId: string;
  pack: CreditPack;
  purpose: 'topup' | 'autopay';
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { status: 'succeeded'; paymentIntentId: string; amountCents: number }
  /** Accepted but not final (e.g. `processing`): credited when the provider confirms it. */
  | { status: 'pending'; paymentIntentId: string }
  | { status: 'failed'; paymentIntentId: string | null; code: string; message: string };

/** What a completed checkout carries to fulfilment: the same for Stripe and the sandbox. */
export interface CompletedCheckout {
  provider: PaymentProviderName;
  sessionId: string;
  accountId: string | null;
  keyId: string | null;
  packId: string;
  amountPaidCents: number;
  email: string | null;
  purpose: string | null;
  source: string | null;
  objective: string | null;
}

/**
 * A provider failure that is not the customer's (network, configuration): 502 to the caller,
 * with a generic message; `detail` (logged, never sent) says what happened.
 */
export class PaymentProviderError extends AppError {
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    // HTTP adds Retry-After (libs/http's error table).
    super('upstream_failed', 'PAYMENT_PROVIDER_ERROR', 'The payment provider failed to answer; retry later.');
    this.name = 'PaymentProviderError';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

/** The setup intent is not this account's, or does not exist: one answer for both (no probing). */
export function setupIntentInvalid(): AppError {
  return Errors.badRequest('SETUP_INTENT_INVALID', 'No such setup intent for this account.');
}
