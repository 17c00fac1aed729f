import { Inject, Injectable } from '@nestjs/common';
import { AppError, CLOCK, type Clock, Errors } from '#kernel';
import { AgentAccounts, type OpenAgentAccount } from '../accounts/agent-accounts.js';
import { type AgentPrincipal, findPack, PATHS } from '#agent-contract';
import { autopayView } from '../credits/credits-autopay.decider.js';
import { CreditsService } from '../credits/credits.service.js';
import { PaymentFulfilment } from '../payments/payment-fulfilment.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from '../payments/payment-provider.port.js';
import { fundingActions } from '../metering/payment-required.js';
import { CheckoutLinkSigner } from '../checkout/checkout-link.signature.js';
import { CheckoutService } from '../checkout/checkout.service.js';

const usd = (cents: number) => cents / 100;

/**
 * Direct charging (spec payment flow 2): setup intent → confirm with the client SDK → attach →
 * charge off-session, optionally saving the method for autopay (D19); plus hosted top-ups.
 */
@Injectable()
export class BillingService {
  constructor(
    @Inject(PAYMENT_PROVIDER) private readonly provider: PaymentProvider,
    private readonly accounts: AgentAccounts,
    private readonly credits: CreditsService,
    private readonly fulfilment: PaymentFulfilment,
    private readonly checkouts: CheckoutService,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly links: CheckoutLinkSigner,
  ) {}

  async account(accountId: string): Promise<OpenAgentAccount> {
    const state = await this.accounts.load(accountId);
    if (state.status !== 'open') throw Errors.notFound('No such agent account.', 'ACCOUNT_NOT_FOUND');
    return state;
  }

  /** The account's customer at the provider, created (once) when missing. */
  async customer(account: OpenAgentAccount): Promise<string> {
    const existing = account.customers[this.provider.name];
    if (existing) return existing;
    const { customerId } = await this.provider.createCustomer({
      accountId: account.accountId,
      email: account.contactEmail,
    });
    try {
      await this.accounts.decide(account.accountId, {
        type: 'LinkPaymentCustomer',
        provider: this.provider.name,
        customerId,
        now: this.clock.now(),
      });
      return customerId;
    } catch (error) {
      // Two first calls raced: the other's customer won; use it.
      if (error instanceof AppError && error.code === 'CUSTOMER_EXISTS') {
        const again = await this.account(account.accountId);
        return again.customers[this.provider.name]!;
      }
      throw error;
    }
  }

  async setupIntent(agent: AgentPrincipal, baseUrl: string) {
    const account = await this.account(agent.accountId);
    const customerId = await this.customer(account);
    const intent = await this.provider.createSetupIntent({ accountId: account.accountId, customerId });
    return {
      setup_intent_id: intent.id,
      client_secret: intent.clientSecret,
      status: intent.status,
      provider: this.provider.name,
      customer_id: customerId,
      usage: 'off_session',
      next_actions: [
        this.provider.name === 'sandbox'
          ? {
              action: 'confirm_setup_intent',
              method: 'POST',
              url: `${baseUrl}${PATHS.sandboxSetupIntents}/${intent.id}/confirm`,
              description: 'Sandbox stand-in for the client SDK: body {client_secret, payment_method: "pm_card_visa"}.',
            }
          : {
              action: 'confirm_setup_intent',
              method: 'CLIENT_SDK',
              url: 'stripe.confirmCardSetup(client_secret)',
              description: 'Confirm with Stripe.js or a mobile SDK.',
            },
        {
          action: 'attach_payment_method',
          method: 'POST',
          url: `${baseUrl}${PATHS.attach}`,
          description: 'Body {payment_method_id, setup_intent_id}.',
        },
      ],
    };
  }

  async attach(agent: AgentPrincipal, input: { payment_method_id: string; setup_intent_id?: string }) {
    const account = await this.account(agent.accountId);
    const customerId = await this.customer(account);
    const method = await this.provider.attachPaymentMethod({
      customerId,
      paymentMethodId: input.payment_method_id,
      ...(input.setup_intent_id ? { setupIntentId: input.setup_intent_id } : {}),
    });
    await this.accounts.decide(account.accountId, {
      type: 'AttachPaymentMethod',
      provider: this.provider.name,
      paymentMethodId: method.id,
      brand: method.brand,
      last4: method.last4,
      expMonth: method.expMonth,
      expYear: method.expYear,
      now: this.clock.now(),
    });
    return {
      payment_method: {
        id: method.id,
        brand: method.brand,
        last4: method.last4,
        exp_month: method.expMonth,
        exp_year: method.expYear,
      },
      attached: true,
      next: 'POST /api/v1/billing/topups/charge {payment_method_id, pack_id, save_for_autopay}',
    };
  }

  async chargeTopup(
    agent: AgentPrincipal,
    input: { payment_method_id: string; pack_id: string; save_for_autopay: boolean },
    idempotencyKey: string,
    baseUrl: string,
  ) {
    const pack = findPack(input.pack_id)!;
    const account = await this.account(agent.accountId);
    const method = account.paymentMethods.find(
      (m) => m.id === input.payment_method_id && m.provider === this.provider.name,
    );
    if (!method) {
      throw Errors.badRequest(
        'PAYMENT_METHOD_NOT_ATTACHED',
        'Attach the payment method first (POST /api/v1/billing/payment-methods/attach).',
        {
          next_actions: [{ action: 'attach_payment_method', method: 'POST', url: `${baseUrl}${PATHS.attach}` }],
        },
      );
    }
    const customerId = await this.customer(account);
    const outcome = await this.provider.chargeOffSession({
      accountId: account.accountId,
      customerId,
      paymentMethodId: method.id,
      pack,
      purpose: 'topup',
      idempotencyKey,
    });
    if (outcome.status === 'failed') {
      const actions = fundingActions(baseUrl, this.links.sign(agent.keyId), pack.pack_id).filter(
        (a) => a.action === 'buy_credits',
      );
      throw new AppError('payment_required', 'PAYMENT_DECLINED', `The payment was not completed: ${outcome.message}`, {
        decline_code: outcome.code,
        payment_intent_id: outcome.paymentIntentId,
        pack_id: pack.pack_id,
        next_actions: actions,
      });
    }
    let balanceCents: number;
    let credited = false;
    if (outcome.status === 'succeeded') {
      const fulfilled = await this.fulfilment.paymentSucceeded({
        provider: this.provider.name,
        paymentIntentId: outcome.paymentIntentId,
        accountId: account.accountId,
        packId: pack.pack_id,
        amountPaidCents: outcome.amountCents,
        source: 'topup',
        keyId: agent.keyId,
        autopayAttemptId: null,
      });
      balanceCents = fulfilled.balanceCents;
      credited = true;
    } else {
      balanceCents = (await this.credits.state(account.accountId)).state.balanceCents;
    }
    if (input.save_for_autopay) {
      await this.credits.execute(account.accountId, {
        type: 'EnableAutopay',
        accountId: account.accountId,
        paymentMethodId: method.id,
        packId: pack.pack_id,
        now: this.clock.now(),
      });
    }
    const { state } = await this.credits.state(account.accountId);
    return {
      status: outcome.status,
      payment_intent_id: outcome.paymentIntentId,
      pack_id: pack.pack_id,
      amount_usd: usd(pack.amount_cents),
      credits_usd: usd(pack.credits_cents),
      credited,
      balance_usd: usd(credited ? state.balanceCents : balanceCents),
      autopay: autopayView(state),
    };
  }

  async topupCheckout(
    agent: AgentPrincipal,
    input: { pack_id: string; objective?: string; source?: string },
    baseUrl: string,
  ) {
    const pack = findPack(input.pack_id)!;
    const account = await this.account(agent.accountId);
    const session = await this.checkouts.open({
      accountId: account.accountId,
      keyId: agent.keyId,
      pack,
      purpose: 'topup',
      objective: input.objective ?? null,
      source: input.source ?? null,
      email: account.contactEmail,
      baseUrl,
    });
    return {
      url: session.url,
      session_id: session.id,
      provider: this.provider.name,
      pack_id: pack.pack_id,
      amount_usd: usd(pack.amount_cents),
      credits_usd: usd(pack.credits_cents),
      expires_at: session.expiresAt,
    };
  }

  async autopay(agent: AgentPrincipal) {
    const { state } = await this.credits.state(agent.accountId, { fresh: true });
    return { autopay: autopayView(state), balance_usd: usd(state.balanceCents) };
  }

  async disableAutopay(agent: AgentPrincipal) {
    await this.credits.execute(agent.accountId, {
      type: 'DisableAutopay',
      accountId: agent.accountId,
      now: this.clock.now(),
    });
    return this.autopay(agent);
  }
}
