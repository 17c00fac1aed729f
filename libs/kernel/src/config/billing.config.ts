import { z } from 'zod';
import { invalid, meterPricesUsd, url } from './config-fields.js';

/** Meter prices, the payment provider (Stripe or the sandbox) and autopay. */
export const billingEnv = z.object({
  SVC_METER_PRICES_USD: meterPricesUsd.optional(),
  /** Stripe (D16): set to take real payments; unset = the offline sandbox provider. */
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, {
      message: 'expected a Stripe secret key (sk_test_…, sk_live_…, rk_…)',
    })
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().trim().min(1).optional(),
  /** Another Stripe API host (stripe-mock, a local stand-in): protocol, host and port are used. */
  STRIPE_API_URL: url(['http', 'https']).optional(),
  /** D19: autopay tops up when a charge leaves the balance under this many USD. */
  SVC_AUTOPAY_THRESHOLD_USD: z.coerce
    .number({ message: 'expected a number of USD' })
    .min(0, { message: 'expected at least 0' })
    .max(1_000_000, { message: 'expected at most 1000000' })
    .default(10),
});

export interface BillingConfig {
  /** Meter price overrides in cents by meter name (SVC_METER_PRICES_USD); empty = D17 defaults. */
  meterPricesCents: Record<string, number>;
  /** STRIPE_SECRET_KEY: payments through Stripe; unset = the sandbox provider (D16). */
  stripeSecretKey?: string;
  stripeWebhookSecret?: string;
  stripeApiUrl?: string;
  /** SVC_AUTOPAY_THRESHOLD_USD in cents (D19). */
  autopayThresholdCents: number;
}

export function billingConfig(c: z.infer<typeof billingEnv>, env: 'test' | 'live'): BillingConfig {
  // D16: the sandbox takes test keys only, and a deployment's keys and payments agree on live/test.
  const stripeMode = c.STRIPE_SECRET_KEY ? (c.STRIPE_SECRET_KEY.includes('_live_') ? 'live' : 'test') : undefined;
  if (env === 'live' && stripeMode !== 'live')
    throw invalid(
      'STRIPE_SECRET_KEY',
      JSON.stringify(stripeMode ? 'sk_test_…' : ''),
      'SVC_ENV=live needs a live Stripe key (the sandbox provider serves test keys only)',
    );
  if (env === 'test' && stripeMode === 'live')
    throw invalid(
      'STRIPE_SECRET_KEY',
      '"sk_live_…"',
      'a live Stripe key needs SVC_ENV=live (test keys must never move real money)',
    );
  if (env === 'live' && c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET)
    throw invalid(
      'STRIPE_WEBHOOK_SECRET',
      '""',
      'SVC_ENV=live with Stripe needs the webhook signing secret (without it, paid checkouts are never credited)',
    );
  return {
    meterPricesCents: c.SVC_METER_PRICES_USD ?? {},
    stripeSecretKey: c.STRIPE_SECRET_KEY,
    stripeWebhookSecret: c.STRIPE_WEBHOOK_SECRET,
    stripeApiUrl: c.STRIPE_API_URL?.replace(/\/+$/, ''),
    autopayThresholdCents: Math.round(c.SVC_AUTOPAY_THRESHOLD_USD * 100),
  };
}

/**
 * Settings that work but put something at risk: the process starts and logs each loudly.
 * (The same settings in live mode are refused by loadConfig.)
 */
export function configWarnings(config: Pick<BillingConfig, 'stripeSecretKey' | 'stripeWebhookSecret'>): string[] {
  const warnings: string[] = [];
  if (config.stripeSecretKey && !config.stripeWebhookSecret) {
    warnings.push(
      'STRIPE_SECRET_KEY is set without STRIPE_WEBHOOK_SECRET: Stripe checkouts will be paid but never credited (POST /api/v1/billing/webhooks/stripe answers 503). Set STRIPE_WEBHOOK_SECRET.',
    );
  }
  return warnings;
}
