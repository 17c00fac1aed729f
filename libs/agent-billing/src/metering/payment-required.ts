import { AppError } from '#kernel';
import { checkoutLinkUrl, type NextAction, PATHS, STARTER_PACK_ID, usdString } from '#agent-contract';
import type { CheckoutLinkBinding } from '../checkout/checkout-link.signature.js';

/**
 * What an agent can do to fund a call it could not pay for (D18 `next_actions`). `binding` is the
 * signed key binding of the checkout link (CheckoutLinkSigner): without it the link opens a new account.
 */
export function fundingActions(
  baseUrl: string,
  binding: CheckoutLinkBinding | null,
  packId: string = STARTER_PACK_ID,
): NextAction[] {
  return [
    {
      action: 'buy_credits',
      method: 'GET',
      url: checkoutLinkUrl(baseUrl, {
        objective: 'starter',
        pack_id: packId,
        source: 'insufficient_credits',
        ...binding,
      }),
      pack_id: packId,
      description:
        'Open a hosted checkout for a credit pack bound to this key (303 to the checkout page; JSON with Accept: application/json).',
    },
    {
      action: 'charge_saved_payment_method',
      method: 'POST',
      url: `${baseUrl}${PATHS.topupCharge}`,
      pack_id: packId,
      description: 'Charge a saved payment method off-session: body {payment_method_id, pack_id, save_for_autopay}.',
    },
    {
      action: 'save_payment_method',
      method: 'POST',
      url: `${baseUrl}${PATHS.setupIntent}`,
      description: 'Start saving a card for direct top-ups and autopay (returns a client_secret).',
    },
    {
      action: 'view_catalog',
      method: 'GET',
      url: `${baseUrl}${PATHS.catalog}`,
      description: 'Credit packs and meter prices.',
    },
    {
      action: 'check_balance',
      method: 'GET',
      url: `${baseUrl}${PATHS.status}`,
      description: 'Balance, recent ledger entries and autopay state.',
    },
  ];
}

/**
 * D18: 402 problem+json `{error: "insufficient_credits", code, meter, price_usd, balance_usd,
 * next_actions[]}` with `X-Credits-Balance`, `X-Credits-Required`, `X-Next-Action` and
 * `Link: <checkout>; rel="payment"`.
 */
export function insufficientCredits(p: {
  meter: string;
  priceCents: number;
  balanceCents: number;
  baseUrl: string;
  binding: CheckoutLinkBinding | null;
}): AppError {
  // The headers (X-Credits-*, X-Next-Action, Link: the first action) are libs/http's error table's.
  const actions = fundingActions(p.baseUrl, p.binding);
  return new AppError(
    'payment_required',
    'INSUFFICIENT_CREDITS',
    `The ${p.meter} call costs ${usdString(p.priceCents)} USD and the balance is ${usdString(p.balanceCents)} USD. Buy credits and retry; nothing was charged.`,
    {
      meter: p.meter,
      price_usd: p.priceCents / 100,
      balance_usd: p.balanceCents / 100,
      required_usd: Math.max(0, p.priceCents - p.balanceCents) / 100,
      next_actions: actions,
    },
  );
}
