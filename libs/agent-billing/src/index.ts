// Agent accounts and keys, prepaid credits and the ledger, payments (Stripe, sandbox), billing
// and autopay, metering (the metered pipeline, 402), Idempotency-Key replays (ADR 0095).
// Named exports only: what other libs use.
export { keySeedFor } from './accounts/active-agent-keys.js';
export { accountHasTenant } from './accounts/agent-account.decider.js';
export { agentAccountStream, type TenantBindingReason } from './accounts/agent-account.events.js';
export { AgentAccounts } from './accounts/agent-accounts.js';
export { AGENT_KEY_SCOPES } from './accounts/agent-key-scopes.js';
export { AgentBillingModule, paymentProviderFor } from './agent-billing.module.js';
export { type CheckoutLinkBinding, CheckoutLinkSigner } from './checkout/checkout-link.signature.js';
export { auditCredits } from './credits/audit/credits-audit.js';
export { CreditLedger, CREDITS_SNAPSHOTS_COLLECTION } from './credits/credit-ledger.js';
export { autopayView } from './credits/credits-autopay.decider.js';
export { type CreditsCommand } from './credits/credits.decider.js';
export { creditsStream } from './credits/credits.events.js';
export { CreditsService } from './credits/credits.service.js';
export { GrantCreditsCommand, type GrantCreditsResult } from './credits/grant-credits/grant-credits.command.js';
export { ledgerEntryView } from './credits/ledger-entry.view.js';
export { PAY_IDEMPOTENCY_NOTE } from './idempotency/idempotency.service.js';
export { MeteredPipeline, type PipelineRequest } from './metering/metered.pipeline.js';
export { METER_METADATA, Metered } from './metering/metered.js';
export { MeteringService } from './metering/metering.service.js';
export { TENANT_LOOKUP, type TenantCaller, type TenantLookup } from './metering/tenant-lookup.port.js';
export { OpenAgentAccountCommand } from './onboarding/open-agent-account/open-agent-account.command.js';
export { issuance } from './onboarding/pay/key-issuance.js';
export { keyIssuanceSchema, payBody, signupBody } from './onboarding/pay/pay.schema.js';
export { PAYMENT_PROVIDER, type PaymentProvider } from './payments/payment-provider.port.js';
export { SandboxPaymentProvider } from './payments/sandbox/sandbox-payment.adapter.js';
export { openStripePaymentProvider } from './payments/stripe/open-stripe-payment-provider.js';
export { stripeClientConfig } from './payments/stripe/stripe-client-config.js';
// A type only: the adapter (and the Stripe SDK, ~220 modules) is loaded only when STRIPE_SECRET_KEY is set.
export { type StripePaymentProvider } from './payments/stripe/stripe-payment.adapter.js';
