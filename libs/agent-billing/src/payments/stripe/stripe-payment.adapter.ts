import { Logger } from '@nestjs/common';
import Stripe from 'stripe';
import { AppError, Errors } from '#kernel';
import { PATHS } from '#agent-contract';
import { type StripeAdapterOptions, stripeClientConfig } from './stripe-client-config.js';
import {
  type ChargeOutcome,
  type CheckoutSession,
  type CheckoutSessionRequest,
  type OffSessionCharge,
  type PaymentMethodInfo,
  type PaymentProvider,
  PaymentProviderError,
  type SetupIntentResult,
  setupIntentInvalid,
} from '../payment-provider.port.js';

/**
 * Stripe through its SDK (D16): Checkout Sessions in payment mode with metadata account, key and
 * pack (fulfilled by the signed webhook, see StripeWebhookController); Customers, SetupIntents
 * for off-session use, attach, and off-session PaymentIntents idempotent by key.
 */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly client: Stripe;
  private readonly logger = new Logger('Stripe');

  constructor(options: StripeAdapterOptions) {
    this.client = new Stripe(options.secretKey, stripeClientConfig(options));
  }

  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const { pack } = request;
    const metadata: Record<string, string> = {
      account_id: request.accountId ?? '',
      key_id: request.keyId ?? '',
      pack_id: pack.pack_id,
      purpose: request.purpose,
      objective: request.objective ?? '',
      source: request.source ?? '',
    };
    const session = await this.call('create a checkout session', () =>
      this.client.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: 'usd',
              unit_amount: pack.amount_cents,
              product_data: {
                name: pack.name,
                description: `${(pack.credits_cents / 100).toFixed(2)} USD of prepaid API credits`,
              },
            },
          },
        ],
        success_url: `${request.baseUrl}${PATHS.checkoutSuccess}?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${request.baseUrl}${PATHS.checkoutCancelled}`,
        ...(request.accountId ? { client_reference_id: request.accountId } : {}),
        ...(request.email ? { customer_email: request.email } : {}),
        metadata,
      }),
    );
    if (!session.url) throw new PaymentProviderError(`Stripe returned checkout session ${session.id} without a URL`);
    return {
      id: session.id,
      url: session.url,
      expiresAt: session.expires_at ? new Date(session.expires_at * 1000).toISOString() : null,
    };
  }

  async createCustomer(request: { accountId: string; email: string | null }): Promise<{ customerId: string }> {
    const customer = await this.call('create a customer', () =>
      this.client.customers.create(
        { metadata: { account_id: request.accountId }, ...(request.email ? { email: request.email } : {}) },
        // One customer per account, even when two setup-intent calls race.
        { idempotencyKey: `customer-${request.accountId}` },
      ),
    );
    return { customerId: customer.id };
  }

  async createSetupIntent(request: { accountId: string; customerId: string }): Promise<SetupIntentResult> {
    const intent = await this.call('create a setup intent', () =>
      this.client.setupIntents.create({
        customer: request.customerId,
        usage: 'off_session',
        metadata: { account_id: request.accountId },
      }),
    );
    if (!intent.client_secret)
      throw new PaymentProviderError(`Stripe returned setup intent ${intent.id} without a client secret`);
    return { id: intent.id, clientSecret: intent.client_secret, status: intent.status };
  }

  async attachPaymentMethod(request: {
    customerId: string;
    paymentMethodId: string;
    setupIntentId?: string;
  }): Promise<PaymentMethodInfo> {
    if (request.setupIntentId) {
      const intent = await this.call('read the setup intent', () =>
        this.client.setupIntents.retrieve(request.setupIntentId!),
      ).catch((error: unknown) => {
        // A missing intent answers like another account's: the caller learns nothing of others'.
        if (error instanceof AppError && error.code === 'PAYMENT_METHOD_INVALID') throw setupIntentInvalid();
        throw error;
      });
      const method = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
      if (
        intent.customer !== request.customerId &&
        (typeof intent.customer !== 'object' || intent.customer?.id !== request.customerId)
      ) {
        throw setupIntentInvalid();
      }
      if (intent.status !== 'succeeded' || method !== request.paymentMethodId) {
        throw Errors.badRequest(
          'SETUP_INTENT_NOT_CONFIRMED',
          'Confirm the setup intent with this payment method (client SDK) before attaching it.',
        );
      }
    }
    let pm = await this.call('read the payment method', () =>
      this.client.paymentMethods.retrieve(request.paymentMethodId),
    );
    const owner = typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null);
    if (owner !== null && owner !== request.customerId)
      throw Errors.badRequest('PAYMENT_METHOD_INVALID', 'The payment method belongs to another customer.');
    if (owner === null)
      pm = await this.call('attach the payment method', () =>
        this.client.paymentMethods.attach(request.paymentMethodId, { customer: request.customerId }),
      );
    return {
      id: pm.id,
      brand: pm.card?.brand ?? null,
      last4: pm.card?.last4 ?? null,
      expMonth: pm.card?.exp_month ?? null,
      expYear: pm.card?.exp_year ?? null,
    };
  }

  async chargeOffSession(request: OffSessionCharge): Promise<ChargeOutcome> {
    try {
      const intent = await this.client.paymentIntents.create(
        {
          amount: request.pack.amount_cents,
          currency: 'usd',
          customer: request.customerId,
          payment_method: request.paymentMethodId,
          off_session: true,
          confirm: true,
          description: `${request.pack.name} (${request.purpose})`,
          metadata: {
            account_id: request.accountId,
            pack_id: request.pack.pack_id,
            purpose: request.purpose,
            attempt: request.idempotencyKey,
          },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      if (intent.status === 'succeeded')
        return {
          status: 'succeeded',
          paymentIntentId: intent.id,
          amountCents: intent.amount_received || intent.amount,
        };
      if (intent.status === 'processing') return { status: 'pending', paymentIntentId: intent.id };
      return {
        status: 'failed',
        paymentIntentId: intent.id,
        code: intent.status,
        message: `The payment needs attention (${intent.status}).`,
      };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeCardError) {
        return {
          status: 'failed',
          paymentIntentId: error.payment_intent?.id ?? null,
          code: error.decline_code ?? error.code ?? 'card_declined',
          message: error.message,
        };
      }
      throw this.translate('charge the payment method', error);
    }
  }

  private async call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw this.translate(what, error);
    }
  }

  private translate(what: string, error: unknown): Error {
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      (error.code === 'resource_missing' || error.param === 'payment_method')
    ) {
      return Errors.badRequest('PAYMENT_METHOD_INVALID', `Stripe: ${error.message}`);
    }
    if (error instanceof Stripe.errors.StripeCardError)
      return Errors.badRequest('PAYMENT_METHOD_INVALID', `Stripe: ${error.message}`);
    this.logger.warn(`Stripe could not ${what}: ${(error as Error)?.message ?? String(error)}`);
    return new PaymentProviderError(`Stripe could not ${what}: ${(error as Error)?.message ?? String(error)}`, {
      cause: error,
    });
  }
}
