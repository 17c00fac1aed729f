/** Paths of the agent surface this feature links to, and the builders of absolute links. */
/** The agent data surface's path prefix (the one definition; agent-surface.ts re-exports it). */
export const AGENT_API_PREFIX = '/api/v1';

export const PATHS = {
  pay: `${AGENT_API_PREFIX}/agents/pay`,
  signup: `${AGENT_API_PREFIX}/agents/signup`,
  keys: `${AGENT_API_PREFIX}/agents/keys`,
  status: `${AGENT_API_PREFIX}/agents/status`,
  catalog: `${AGENT_API_PREFIX}/agents/catalog`,
  checkoutLink: `${AGENT_API_PREFIX}/agents/checkout-link`,
  setupIntent: `${AGENT_API_PREFIX}/billing/setup-intent`,
  attach: `${AGENT_API_PREFIX}/billing/payment-methods/attach`,
  topupCharge: `${AGENT_API_PREFIX}/billing/topups/charge`,
  topupCheckout: `${AGENT_API_PREFIX}/billing/topups/checkout`,
  autopay: `${AGENT_API_PREFIX}/billing/autopay`,
  ledger: `${AGENT_API_PREFIX}/billing/ledger`,
  stripeWebhook: `${AGENT_API_PREFIX}/billing/webhooks/stripe`,
  checkoutSuccess: `${AGENT_API_PREFIX}/billing/checkout/success`,
  checkoutCancelled: `${AGENT_API_PREFIX}/billing/checkout/cancelled`,
  sandboxCheckout: `${AGENT_API_PREFIX}/billing/sandbox/checkout`,
  sandboxSetupIntents: `${AGENT_API_PREFIX}/billing/sandbox/setup-intents`,
} as const;

export function checkoutLinkUrl(
  baseUrl: string,
  params: {
    objective?: string | null;
    pack_id?: string | null;
    source?: string | null;
    key_id?: string | null;
    exp?: string | null;
    sig?: string | null;
  },
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const qs = q.toString();
  return `${baseUrl}${PATHS.checkoutLink}${qs ? `?${qs}` : ''}`;
}

export function sandboxCheckoutUrl(baseUrl: string, sessionId: string): string {
  return `${baseUrl}${PATHS.sandboxCheckout}/${encodeURIComponent(sessionId)}`;
}

/** USD with two decimals, for headers (`X-Credits-Balance: 25.50`). */
export function usdString(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
