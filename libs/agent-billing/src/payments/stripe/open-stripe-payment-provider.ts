import type { StripeAdapterOptions } from './stripe-client-config.js';
import type { StripePaymentProvider } from './stripe-payment.adapter.js';

/** The Stripe adapter, its module (and the SDK, ~220 modules) loaded only now: a sandbox process never loads them. */
export async function openStripePaymentProvider(options: StripeAdapterOptions): Promise<StripePaymentProvider> {
  const { StripePaymentProvider } = await import('./stripe-payment.adapter.js');
  return new StripePaymentProvider(options);
}
