import { createHash, randomBytes } from 'node:crypto';
import { type Clock, Errors, type IdGenerator } from '#kernel';
import { type Doc, type DocumentStore, ConcurrentModificationError } from '#documents';
import { sandboxCheckoutUrl } from '#agent-contract';
import type {
  ChargeOutcome,
  CheckoutSession,
  CheckoutSessionRequest,
  CompletedCheckout,
  OffSessionCharge,
  PaymentMethodInfo,
  PaymentProvider,
  SetupIntentResult,
} from '../payment-provider.port.js';
import { setupIntentInvalid } from '../payment-provider.port.js';

/** The sandbox provider's own records (it plays the payment processor, offline). */
export const SANDBOX_COLLECTION = 'sandbox_payments';
const SESSION_TTL_MS = 24 * 3600_000;

export interface SandboxCheckoutDoc extends Doc {
  kind: 'checkout_session';
  status: 'open' | 'complete';
  account_id: string | null;
  key_id: string | null;
  pack_id: string;
  pack_name: string;
  amount_cents: number;
  credits_cents: number;
  purpose: string;
  objective: string | null;
  source: string | null;
  email: string | null;
  created_at: string;
  expires_at: string;
  completed_at: string | null;
}

interface SandboxCustomerDoc extends Doc {
  kind: 'customer';
  account_id: string;
}

interface SandboxSetupIntentDoc extends Doc {
  kind: 'setup_intent';
  customer: string;
  client_secret: string;
  status: 'requires_payment_method' | 'succeeded';
  payment_method: string | null;
}

interface SandboxPaymentMethodDoc extends Doc {
  kind: 'payment_method';
  customer: string | null;
  card: TestCard;
}

interface SandboxChargeDoc extends Doc {
  kind: 'charge';
  outcome: ChargeOutcome;
}

interface TestCard {
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  /** What an off-session charge on it does. */
  decline: null | { code: string; message: string };
}

/**
 * Stripe's well-known test payment methods: the same ids work with the sandbox and with Stripe
 * in test mode, so a client written against one works with the other.
 */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, TestCard>> = Object.freeze({
  pm_card_visa: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, decline: null },
  pm_card_mastercard: { brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: 2034, decline: null },
  pm_card_amex: { brand: 'amex', last4: '8431', exp_month: 12, exp_year: 2034, decline: null },
  pm_card_chargeDeclined: {
    brand: 'visa',
    last4: '0002',
    exp_month: 12,
    exp_year: 2034,
    decline: { code: 'card_declined', message: 'Your card was declined.' },
  },
  pm_card_chargeDeclinedInsufficientFunds: {
    brand: 'visa',
    last4: '9995',
    exp_month: 12,
    exp_year: 2034,
    decline: { code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  },
  pm_card_authenticationRequired: {
    brand: 'visa',
    last4: '3155',
    exp_month: 12,
    exp_year: 2034,
    decline: { code: 'authentication_required', message: 'This payment needs the cardholder to authenticate.' },
  },
});

/**
 * The sandbox payment provider (D16, default without STRIPE_SECRET_KEY). Its checkout sessions
 * are pages this service serves (`/api/v1/billing/sandbox/checkout/{id}`) whose Pay button
 * completes the purchase through the same fulfilment as Stripe's webhook. Setup intents, saved
 * methods and off-session charges work offline with Stripe's test payment method ids.
 */
export class SandboxPaymentProvider implements PaymentProvider {
  readonly name = 'sandbox' as const;

  constructor(
    private readonly documents: DocumentStore,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  private get records() {
    return this.documents.collection(SANDBOX_COLLECTION);
  }

  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const now = this.clock.now();
    const doc: SandboxCheckoutDoc = {
      id: this.ids.next('cs'),
      kind: 'checkout_session',
      status: 'open',
      account_id: request.accountId,
      key_id: request.keyId,
      pack_id: request.pack.pack_id,
      pack_name: request.pack.name,
      amount_cents: request.pack.amount_cents,
      credits_cents: request.pack.credits_cents,
      purpose: request.purpose,
      objective: request.objective,
      source: request.source,
      email: request.email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
      completed_at: null,
    };
    await this.records.upsert(doc);
    return { id: doc.id, url: sandboxCheckoutUrl(request.baseUrl, doc.id), expiresAt: doc.expires_at };
  }

  async checkoutSession(id: string): Promise<SandboxCheckoutDoc | null> {
    const doc = await this.records.get(id);
    return doc?.kind === 'checkout_session' ? (doc as SandboxCheckoutDoc) : null;
  }

  /**
   * The Pay button: marks the session paid (once) and returns what fulfilment needs. A session
   * paid already returns the same, so a double click or a retry after a crash fulfils (once).
   */
  async completeCheckout(id: string): Promise<CompletedCheckout> {
    for (;;) {
      const session = await this.checkoutSession(id);
      if (!session) throw Errors.notFound('No such sandbox checkout session.', 'CHECKOUT_SESSION_NOT_FOUND');
      const now = this.clock.now();
      if (session.status === 'open') {
        if (session.expires_at <= now.toISOString())
          throw Errors.conflict('The checkout session has expired; open a new one.', 'CHECKOUT_SESSION_EXPIRED');
        const completed: SandboxCheckoutDoc = { ...session, status: 'complete', completed_at: now.toISOString() };
        try {
          await this.documents.applyBatch([
            { kind: 'cas', collection: SANDBOX_COLLECTION, doc: completed, expect: { status: 'open' } },
          ]);
        } catch (error) {
          if (error instanceof ConcurrentModificationError) continue;
          throw error;
        }
        return toCompleted(completed);
      }
      return toCompleted(session);
    }
  }

  async createCustomer(request: { accountId: string }): Promise<{ customerId: string }> {
    const doc: SandboxCustomerDoc = {
      id: `cus_sbx_${this.ids.ulid()}`,
      kind: 'customer',
      account_id: request.accountId,
    };
    await this.records.upsert(doc);
    return { customerId: doc.id };
  }

  async createSetupIntent(request: { accountId: string; customerId: string }): Promise<SetupIntentResult> {
    const id = this.ids.next('seti');
    const doc: SandboxSetupIntentDoc = {
      id,
      kind: 'setup_intent',
      customer: request.customerId,
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      status: 'requires_payment_method',
      payment_method: null,
    };
    await this.records.upsert(doc);
    return { id, clientSecret: doc.client_secret, status: doc.status };
  }

  /**
   * What a client SDK's confirm does (stripe.confirmCardSetup): the test card named by
   * `paymentMethod` becomes a payment method of the setup intent's customer.
   */
  async confirmSetupIntent(
    id: string,
    clientSecret: string,
    paymentMethod: string,
  ): Promise<{ setupIntentId: string; status: string; paymentMethodId: string }> {
    const doc = await this.records.get(id);
    if (doc?.kind !== 'setup_intent') throw Errors.notFound('No such setup intent.', 'SETUP_INTENT_NOT_FOUND');
    const si = doc as SandboxSetupIntentDoc;
    if (si.client_secret !== clientSecret)
      throw Errors.badRequest(
        'SETUP_INTENT_SECRET_MISMATCH',
        'The client_secret does not belong to this setup intent.',
      );
    if (si.status === 'succeeded' && si.payment_method)
      return { setupIntentId: id, status: si.status, paymentMethodId: si.payment_method };
    const pm = await this.newPaymentMethod(paymentMethod, si.customer);
    await this.records.upsert({ ...si, status: 'succeeded', payment_method: pm.id });
    return { setupIntentId: id, status: 'succeeded', paymentMethodId: pm.id };
  }

  async attachPaymentMethod(request: {
    customerId: string;
    paymentMethodId: string;
    setupIntentId?: string;
  }): Promise<PaymentMethodInfo> {
    if (request.setupIntentId !== undefined) {
      // As with Stripe: the intent must be this customer's (a missing one answers alike) and
      // confirmed with this very payment method.
      const doc = await this.records.get(request.setupIntentId);
      const si = doc?.kind === 'setup_intent' ? (doc as SandboxSetupIntentDoc) : null;
      if (!si || si.customer !== request.customerId) throw setupIntentInvalid();
      if (si.status !== 'succeeded' || si.payment_method !== request.paymentMethodId)
        throw Errors.badRequest(
          'SETUP_INTENT_NOT_CONFIRMED',
          'Confirm the setup intent with this payment method before attaching it.',
        );
    }
    // A test card id (`pm_card_visa`) attaches as a new method, as with Stripe in test mode.
    const pm = SANDBOX_TEST_CARDS[request.paymentMethodId]
      ? await this.newPaymentMethod(request.paymentMethodId, request.customerId)
      : await this.paymentMethod(request.paymentMethodId);
    if (pm.customer !== null && pm.customer !== request.customerId) {
      throw Errors.badRequest('PAYMENT_METHOD_INVALID', 'The payment method belongs to another customer.');
    }
    if (pm.customer === null) await this.records.upsert({ ...pm, customer: request.customerId });
    return info(pm);
  }

  async chargeOffSession(request: OffSessionCharge): Promise<ChargeOutcome> {
    const id = `charge_${createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 32)}`;
    const previous = await this.records.get(id);
    if (previous?.kind === 'charge') return (previous as SandboxChargeDoc).outcome;
    const pm = await this.paymentMethod(request.paymentMethodId);
    if (pm.customer !== request.customerId)
      throw Errors.badRequest('PAYMENT_METHOD_INVALID', 'The payment method is not attached to this account.');
    const paymentIntentId = this.ids.next('pi');
    const outcome: ChargeOutcome = pm.card.decline
      ? { status: 'failed', paymentIntentId, code: pm.card.decline.code, message: pm.card.decline.message }
      : { status: 'succeeded', paymentIntentId, amountCents: request.pack.amount_cents };
    const doc: SandboxChargeDoc = { id, kind: 'charge', outcome };
    // First writer wins: a concurrent retry with the same key gets the same outcome.
    if (!(await this.records.insertIfAbsent(doc))) return ((await this.records.get(id)) as SandboxChargeDoc).outcome;
    return outcome;
  }

  private async newPaymentMethod(token: string, customer: string | null): Promise<SandboxPaymentMethodDoc> {
    const card = SANDBOX_TEST_CARDS[token];
    if (!card) {
      throw Errors.badRequest(
        'PAYMENT_METHOD_INVALID',
        `Unknown sandbox payment method "${token}"; use one of ${Object.keys(SANDBOX_TEST_CARDS).join(', ')}.`,
      );
    }
    const doc: SandboxPaymentMethodDoc = { id: `pm_sbx_${this.ids.ulid()}`, kind: 'payment_method', customer, card };
    await this.records.upsert(doc);
    return doc;
  }

  private async paymentMethod(id: string): Promise<SandboxPaymentMethodDoc> {
    const doc = await this.records.get(id);
    if (doc?.kind !== 'payment_method')
      throw Errors.badRequest('PAYMENT_METHOD_INVALID', `No such payment method: ${id}.`);
    return doc as SandboxPaymentMethodDoc;
  }
}

function info(pm: SandboxPaymentMethodDoc): PaymentMethodInfo {
  return {
    id: pm.id,
    brand: pm.card.brand,
    last4: pm.card.last4,
    expMonth: pm.card.exp_month,
    expYear: pm.card.exp_year,
  };
}

function toCompleted(s: SandboxCheckoutDoc): CompletedCheckout {
  return {
    provider: 'sandbox',
    sessionId: s.id,
    accountId: s.account_id,
    keyId: s.key_id,
    packId: s.pack_id,
    amountPaidCents: s.amount_cents,
    email: s.email,
    purpose: s.purpose,
    source: s.source,
    objective: s.objective,
  };
}
