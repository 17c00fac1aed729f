import { Errors } from '#kernel';
import type { PaymentProvider } from '../payment-provider.port.js';
import { SandboxPaymentProvider } from './sandbox-payment.adapter.js';

/** The sandbox provider, or 404 SANDBOX_DISABLED when payments go through Stripe. */
export function sandboxOf(provider: PaymentProvider): SandboxPaymentProvider {
  if (!(provider instanceof SandboxPaymentProvider))
    throw Errors.notFound('The sandbox payment provider is not in use.', 'SANDBOX_DISABLED');
  return provider;
}
