import { type CreditPack, findPack, PATHS } from '#agent-contract';
import type { OpenedAgentAccount } from '../open-agent-account/open-agent-account.command.js';
import type { KeyIssuance } from './pay.schema.js';

const usd = (cents: number) => cents / 100;

export function packSummary(pack: CreditPack) {
  return {
    pack_id: pack.pack_id,
    name: pack.name,
    amount_usd: usd(pack.amount_cents),
    credits_usd: usd(pack.credits_cents),
  };
}

export const PAYMENT_FLOW = [
  'POST /api/v1/agents/pay (or /agents/signup) returns key.api_key and starter_checkout.url.',
  'Open starter_checkout.url and pay (sandbox: press Pay).',
  'Credits land on the account when the payment is confirmed; GET /api/v1/agents/status shows balance_usd.',
  'Call paid endpoints with x-api-key: each successful call is charged its meter; 402 insufficient_credits lists next_actions.',
  'Top up with GET /api/v1/agents/checkout-link?pack_id=…&key_id=…, or save a card (POST /api/v1/billing/setup-intent) for direct top-ups and autopay.',
];

/** The answer of POST /agents/pay and /agents/signup (and the MCP tool svc.signup). */
export function issuance(opened: OpenedAgentAccount, baseUrl: string): KeyIssuance {
  const pack = findPack(opened.packId)!;
  return {
    account_id: opened.accountId,
    key: { id: opened.key.id, api_key: opened.key.apiKey, prefix: opened.key.prefix, created_at: opened.key.createdAt },
    starter_checkout: {
      url: opened.checkout.url,
      session_id: opened.checkout.id,
      pack_id: pack.pack_id,
      amount_usd: usd(pack.amount_cents),
      credits_usd: usd(pack.credits_cents),
      provider: opened.checkout.provider as 'stripe' | 'sandbox',
      expires_at: opened.checkout.expiresAt,
    },
    pack: packSummary(pack),
    objective: opened.objective,
    balance_usd: 0,
    next_actions: [
      {
        action: 'open_checkout',
        method: 'GET',
        url: opened.checkout.url,
        description: `Pay ${usd(pack.amount_cents)} USD for ${usd(pack.credits_cents)} USD of credits.`,
      },
      {
        action: 'check_status',
        method: 'GET',
        url: `${baseUrl}${PATHS.status}`,
        description: 'Balance and ledger (send the key).',
      },
      {
        action: 'rotate_key',
        method: 'POST',
        url: `${baseUrl}${PATHS.keys}`,
        description: 'Issue another key for this account.',
      },
    ],
    payment_flow: PAYMENT_FLOW,
  };
}
