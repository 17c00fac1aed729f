import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type Stripe from 'stripe';
import { AppError, APP_CONFIG, type AppConfig, CLOCK, type Clock, type ErrorKind, Errors } from '#kernel';
import { PaymentFulfilment } from '../../payment-fulfilment.js';
import { FulfilStripeEventCommand, type StripeEventOutcome } from './fulfil-event.command.js';

/** Stripe's default: a signature older than 5 minutes is refused (replays). */
const TOLERANCE_SECONDS = 300;

export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'payment_intent.succeeded',
];

/**
 * Fulfilment by Stripe's signed webhook (D16). The signature is verified over the raw body
 * (kept for this route only); `checkout.session.completed` credits when paid (async methods
 * credit on `checkout.session.async_payment_succeeded`), idempotent by session id; off-session
 * payments that finished later credit on `payment_intent.succeeded`, idempotent by intent id.
 * Anything else is acknowledged and ignored. 2xx means "done, do not resend".
 */
/** Refusals that are the service's trouble, not the payment's: Stripe should send it again. */
const SERVICE_FAULTS: ReadonlySet<ErrorKind> = new Set(['internal', 'upstream_failed', 'unavailable']);

@CommandHandler(FulfilStripeEventCommand)
export class FulfilStripeEventHandler implements ICommandHandler<FulfilStripeEventCommand, StripeEventOutcome> {
  private readonly logger = new Logger('StripeWebhook');

  constructor(
    private readonly fulfilment: PaymentFulfilment,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ rawBody, signature }: FulfilStripeEventCommand): Promise<StripeEventOutcome> {
    const secret = this.config.stripeWebhookSecret;
    if (!secret)
      throw Errors.unavailable(
        'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).',
        'STRIPE_WEBHOOK_NOT_CONFIGURED',
      );
    if (!signature || !rawBody)
      throw Errors.badRequest('SIGNATURE_INVALID', 'The Stripe-Signature header or the body is missing.');
    // Loaded on the first Stripe webhook: the SDK is not part of a sandbox process's start.
    const { default: StripeSdk } = await import('stripe');
    let event: Stripe.Event;
    try {
      event = StripeSdk.webhooks.constructEvent(
        rawBody,
        signature,
        secret,
        TOLERANCE_SECONDS,
        undefined,
        Math.floor(this.clock.now().getTime() / 1000),
      );
    } catch {
      throw Errors.badRequest('SIGNATURE_INVALID', 'The Stripe-Signature does not match the body.');
    }
    try {
      const outcome = await this.handle(event);
      return { received: true, id: event.id, type: event.type, ...outcome };
    } catch (error) {
      // A payment that can never be credited (unknown pack or account, wrong amount): resending
      // will not help, so acknowledge it, and leave it to an operator (the money was taken).
      if (error instanceof AppError && !SERVICE_FAULTS.has(error.kind)) {
        this.logger.error(`${event.type} ${event.id} cannot be credited: ${error.code} ${error.message}`);
        return { received: true, id: event.id, type: event.type, handled: false, credited: false, error: error.code };
      }
      throw error; // store or provider trouble: a 5xx makes Stripe retry
    }
  }

  private async handle(event: Stripe.Event): Promise<{ handled: boolean; credited: boolean; account_id?: string }> {
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // completed but unpaid: an async method (bank debit) settles later with async_payment_succeeded.
        if (session.payment_status === 'unpaid') return { handled: false, credited: false };
        const m = session.metadata ?? {};
        const fulfilled = await this.fulfilment.checkoutCompleted({
          provider: 'stripe',
          sessionId: session.id,
          accountId: m.account_id || session.client_reference_id || null,
          keyId: m.key_id || null,
          packId: m.pack_id ?? '',
          amountPaidCents: session.amount_total ?? 0,
          email: session.customer_details?.email ?? null,
          purpose: m.purpose || null,
          source: m.source || null,
          objective: m.objective || null,
        });
        this.logger.log(
          `${event.type} ${session.id}: ${fulfilled.credited ? 'credited' : 'already credited'} (${fulfilled.accountId})`,
        );
        return { handled: true, credited: fulfilled.credited, account_id: fulfilled.accountId };
      }
      case 'payment_intent.succeeded': {
        const intent = event.data.object;
        const m = intent.metadata ?? {};
        // Only our off-session charges; checkout payments are credited by session id above.
        if (m.purpose !== 'topup' && m.purpose !== 'autopay') return { handled: false, credited: false };
        if (!m.account_id || !m.pack_id) return { handled: false, credited: false };
        const attempt =
          m.purpose === 'autopay' && m.attempt?.startsWith('autopay-') ? m.attempt.slice('autopay-'.length) : null;
        const fulfilled = await this.fulfilment.paymentSucceeded({
          provider: 'stripe',
          paymentIntentId: intent.id,
          accountId: m.account_id,
          packId: m.pack_id,
          amountPaidCents: intent.amount_received || intent.amount,
          source: m.purpose,
          keyId: null,
          autopayAttemptId: attempt,
        });
        return { handled: true, credited: fulfilled.credited, account_id: fulfilled.accountId };
      }
      default:
        return { handled: false, credited: false };
    }
  }
}
