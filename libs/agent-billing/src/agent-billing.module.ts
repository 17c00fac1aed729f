import { Global, Injectable, Module, type OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { APP_CONFIG, type AppConfig, CLOCK, type Clock, ID_GENERATOR, type IdGenerator } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { AgentAccounts } from './accounts/agent-accounts.js';
import { OpenAgentAccountHandler } from './onboarding/open-agent-account/open-agent-account.handler.js';
import { CreateAgentKeyHandler } from './accounts/create-key/create-key.handler.js';
import { CreateAgentKeyController } from './accounts/create-key/create-key.http.controller.js';
import { ListAgentKeysHandler } from './accounts/list-keys/list-keys.handler.js';
import { ListAgentKeysController } from './accounts/list-keys/list-keys.http.controller.js';
import { RevokeAgentKeyHandler } from './accounts/revoke-key/revoke-key.handler.js';
import { RevokeAgentKeyController } from './accounts/revoke-key/revoke-key.http.controller.js';
import { PayController } from './onboarding/pay/pay.http.controller.js';
import { CheckPayHandler } from './onboarding/pay/pay-check.handler.js';
import { AgentAuthenticator, AgentKeyGuard, AgentRateLimiter, OptionalAgentKeyGuard } from '#agent-contract';
import { AutopayRunner } from './billing/autopay.runner.js';
import { CreateCheckoutLinkHandler } from './billing/checkout-link/checkout-link.handler.js';
import { CheckoutLinkController } from './billing/checkout-link/checkout-link.http.controller.js';
import { CreateSetupIntentHandler } from './billing/setup-intent/setup-intent.handler.js';
import { CreateSetupIntentController } from './billing/setup-intent/setup-intent.http.controller.js';
import { AttachPaymentMethodHandler } from './billing/attach-payment-method/attach-payment-method.handler.js';
import { AttachPaymentMethodController } from './billing/attach-payment-method/attach-payment-method.http.controller.js';
import { ChargeTopupHandler } from './billing/charge-topup/charge-topup.handler.js';
import { ChargeTopupController } from './billing/charge-topup/charge-topup.http.controller.js';
import { CreateTopupCheckoutHandler } from './billing/topup-checkout/topup-checkout.handler.js';
import { CreateTopupCheckoutController } from './billing/topup-checkout/topup-checkout.http.controller.js';
import { GetAutopayHandler } from './billing/get-autopay/get-autopay.handler.js';
import { GetAutopayController } from './billing/get-autopay/get-autopay.http.controller.js';
import { DisableAutopayHandler } from './billing/disable-autopay/disable-autopay.handler.js';
import { DisableAutopayController } from './billing/disable-autopay/disable-autopay.http.controller.js';
import { GetLedgerHandler } from './billing/get-ledger/get-ledger.handler.js';
import { GetLedgerController } from './billing/get-ledger/get-ledger.http.controller.js';
import { LedgerCursors } from './billing/get-ledger/ledger-cursor.js';
import { BillingService } from './billing/billing.service.js';
import { CheckoutService } from './checkout/checkout.service.js';
import { CheckoutLinkSigner } from './checkout/checkout-link.signature.js';
import { CreditsService } from './credits/credits.service.js';
import { GrantCreditsHandler } from './credits/grant-credits/grant-credits.handler.js';
import { Idempotency } from './idempotency/idempotency.service.js';
import { MeteredChargeHooks, MeteredGuard } from './metering/metered.js';
import { MeteredPipeline } from './metering/metered.pipeline.js';
import { MeteringService } from './metering/metering.service.js';
import { CheckoutClaims } from './payments/checkout-claims.js';
import { PaymentFulfilment } from './payments/payment-fulfilment.js';
import { PAYMENT_PROVIDER, type PaymentProvider } from './payments/payment-provider.port.js';
import { installRawBodyHook } from './payments/raw-body.js';
import { SandboxController } from './payments/sandbox/sandbox.http.controller.js';
import { ConfirmSandboxSetupIntentHandler } from './payments/sandbox/confirm-setup-intent/confirm-setup-intent.handler.js';
import { ConfirmSandboxSetupIntentController } from './payments/sandbox/confirm-setup-intent/confirm-setup-intent.http.controller.js';
import { PaySandboxCheckoutHandler } from './payments/sandbox/pay-checkout/pay-checkout.handler.js';
import { GetSandboxCheckoutHandler } from './payments/sandbox/get-checkout-session/get-checkout-session.handler.js';
import { ShowCheckoutSuccessHandler } from './payments/sandbox/checkout-success/checkout-success.handler.js';
import { PaySandboxCheckoutController } from './payments/sandbox/pay-checkout/pay-checkout.http.controller.js';
import { SandboxPaymentProvider } from './payments/sandbox/sandbox-payment.adapter.js';
import { openStripePaymentProvider } from './payments/stripe/open-stripe-payment-provider.js';
import { FulfilStripeEventHandler } from './payments/stripe/fulfil-event/fulfil-event.handler.js';
import { StripeWebhookController } from './payments/stripe/fulfil-event/fulfil-event.http.controller.js';

/**
 * D16: Stripe when STRIPE_SECRET_KEY is set, else the offline sandbox. The Stripe SDK is imported
 * only then: ~220 modules, 0.2 s of every process start on the sandbox default (the CLI's too).
 */
export async function paymentProviderFor(
  config: AppConfig,
  documents: DocumentStore,
  ids: IdGenerator,
  clock: Clock,
): Promise<PaymentProvider> {
  if (config.stripeSecretKey) {
    return openStripePaymentProvider({
      secretKey: config.stripeSecretKey,
      ...(config.stripeApiUrl ? { apiUrl: config.stripeApiUrl } : {}),
    });
  }
  return new SandboxPaymentProvider(documents, ids, clock);
}

/** Keeps the raw body of the Stripe webhook route (only) when this module runs in the HTTP app. */
@Injectable()
class RawBodyInstaller implements OnModuleInit {
  constructor(@Optional() private readonly adapterHost?: HttpAdapterHost) {}

  onModuleInit(): void {
    const instance = this.adapterHost?.httpAdapter?.getInstance?.() as
      Parameters<typeof installRawBodyHook>[0] | undefined;
    if (instance && typeof instance.addHook === 'function') installRawBodyHook(instance);
  }
}

/**
 * Agent onboarding, prepaid credits and payments: accounts and keys
 * (/agents/pay, /agents/signup, /agents/keys), the credits ledger with hot-stream state,
 * metering and 402 (`@Metered`), the payment-provider port (Stripe, sandbox), checkout and
 * billing endpoints, autopay. Global, so any feature's controller can use `@Metered(meter)` and
 * `@AgentAuth()` without importing it.
 */
@Global()
@Module({
  imports: [CqrsModule.forRoot()],
  controllers: [
    PayController,
    CreateAgentKeyController,
    ListAgentKeysController,
    RevokeAgentKeyController,
    CheckoutLinkController,
    CreateSetupIntentController,
    AttachPaymentMethodController,
    ChargeTopupController,
    CreateTopupCheckoutController,
    GetAutopayController,
    DisableAutopayController,
    GetLedgerController,
    StripeWebhookController,
    SandboxController,
    PaySandboxCheckoutController,
    ConfirmSandboxSetupIntentController,
  ],
  providers: [
    {
      provide: PAYMENT_PROVIDER,
      useFactory: paymentProviderFor,
      inject: [APP_CONFIG, DOCUMENT_STORE, ID_GENERATOR, CLOCK],
    },
    RawBodyInstaller,
    AgentAuthenticator,
    AgentRateLimiter,
    AgentKeyGuard,
    OptionalAgentKeyGuard,
    MeteringService,
    // The metered pipeline: one instance for the REST guards and the MCP tools (its tenant step,
    // TENANT_LOOKUP, is the workspace's WorkspaceTenantsModule).
    MeteredPipeline,
    MeteredGuard,
    MeteredChargeHooks,
    CreditsService,
    AgentAccounts,
    CheckoutService,
    CheckoutLinkSigner,
    PaymentFulfilment,
    CheckoutClaims,
    BillingService,
    AutopayRunner,
    Idempotency,
    OpenAgentAccountHandler,
    CheckPayHandler,
    CreateAgentKeyHandler,
    FulfilStripeEventHandler,
    PaySandboxCheckoutHandler,
    GetSandboxCheckoutHandler,
    ShowCheckoutSuccessHandler,
    ConfirmSandboxSetupIntentHandler,
    CreateCheckoutLinkHandler,
    CreateSetupIntentHandler,
    AttachPaymentMethodHandler,
    ChargeTopupHandler,
    CreateTopupCheckoutHandler,
    GetAutopayHandler,
    DisableAutopayHandler,
    GetLedgerHandler,
    LedgerCursors,
    GrantCreditsHandler,
    ListAgentKeysHandler,
    RevokeAgentKeyHandler,
  ],
  exports: [
    PAYMENT_PROVIDER,
    AgentAccounts,
    CheckoutLinkSigner,
    AgentAuthenticator,
    AgentRateLimiter,
    AgentKeyGuard,
    OptionalAgentKeyGuard,
    MeteringService,
    MeteredPipeline,
    MeteredGuard,
    CreditsService,
    PaymentFulfilment,
    Idempotency,
    AutopayRunner,
  ],
})
export class AgentBillingModule {}
