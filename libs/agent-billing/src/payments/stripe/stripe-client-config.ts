import type Stripe from 'stripe';

export interface StripeAdapterOptions {
  secretKey: string;
  /** Another API host (stripe-mock, a local stand-in); its protocol, host and port are used. */
  apiUrl?: string;
  /** Request timeout, default 20 s; network retries (idempotent by key), default 2. */
  timeoutMs?: number;
  maxNetworkRetries?: number;
}

/** SDK options pointing the client at `apiUrl` (D16: STRIPE_API_URL). */
export function stripeClientConfig(options: StripeAdapterOptions): ConstructorParameters<typeof Stripe>[1] {
  const config: NonNullable<ConstructorParameters<typeof Stripe>[1]> = {
    timeout: options.timeoutMs ?? 20_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    appInfo: { name: 'svc-agent-data' },
    telemetry: false,
  };
  if (options.apiUrl) {
    const url = new URL(options.apiUrl);
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'http:' ? 80 : 443);
  }
  return config;
}
