// Events and commands of one account's credits ledger for the decider specs, with their usual
// values (account, key, pack, time); each takes what a test varies.
import type { CreditsCommand } from '../credits/credits.decider.js';
import type { CreditsEvent } from '../credits/credits.events.js';

export const now = new Date('2026-03-01T10:00:00Z');
export const at = now.toISOString();
export const acct = 'acct_1';

export const purchased = (
  credits: number,
  ref = 'cs_1',
  over: Partial<Extract<CreditsEvent, { type: 'CreditsPurchased' }>['data']> = {},
): CreditsEvent => ({
  type: 'CreditsPurchased',
  data: {
    account_id: acct,
    pack_id: 'pack_29',
    amount_cents: credits,
    credits_cents: credits,
    payment_reference: ref,
    provider: 'sandbox',
    source: 'checkout',
    key_id: 'key_1',
    autopay_attempt_id: null,
    purchased_at: at,
    ...over,
  },
});
export const charged = (price: number, requestId = 'req-1'): CreditsEvent => ({
  type: 'MeterCharged',
  data: {
    account_id: acct,
    meter: 'read.discovery_top',
    price_cents: price,
    request_id: requestId,
    key_id: 'key_1',
    charged_at: at,
  },
});
export const keyedCharged = (price: number, chargeKey: string, requestId = 'dlv-1'): CreditsEvent => ({
  type: 'MeterCharged',
  data: {
    account_id: acct,
    meter: 'deliver.workspace.webhook',
    price_cents: price,
    request_id: requestId,
    key_id: 'key_1',
    charge_key: chargeKey,
    charged_at: at,
  },
});
export const chargeSettled = (
  price: number,
  chargeKey: string,
  refunded: boolean,
  reason: string | null = null,
): CreditsEvent => ({
  type: 'MeterChargeSettled',
  data: {
    account_id: acct,
    charge_key: chargeKey,
    meter: 'deliver.workspace.webhook',
    price_cents: price,
    refunded_cents: refunded ? price : 0,
    reason,
    settled_at: at,
  },
});
export const granted = (credits: number, reference = 'PO-1234'): CreditsEvent => ({
  type: 'CreditsGranted',
  data: {
    account_id: acct,
    credits_cents: credits,
    reference,
    key_id: 'key_1',
    granted_by: 'operator',
    granted_at: at,
  },
});
export const autopayOn: CreditsEvent = {
  type: 'AutopayEnabled',
  data: { account_id: acct, payment_method_id: 'pm_1', pack_id: 'pack_99', enabled_at: at },
};
export const triggered = (balance: number, attempt = 'att_1'): CreditsEvent => ({
  type: 'AutopayTriggered',
  data: {
    account_id: acct,
    attempt_id: attempt,
    pack_id: 'pack_99',
    payment_method_id: 'pm_1',
    balance_cents: balance,
    threshold_cents: 1000,
    triggered_at: at,
  },
});

export const charge = (
  price: number,
  over: Partial<Extract<CreditsCommand, { type: 'ChargeMeter' }>> = {},
): CreditsCommand => ({
  type: 'ChargeMeter',
  accountId: acct,
  meter: 'read.discovery_top',
  priceCents: price,
  requestId: 'req-1',
  keyId: 'key_1',
  autopayThresholdCents: 1000,
  newAutopayAttemptId: () => 'att_1',
  now,
  ...over,
});
export const keyedCharge = (
  price: number,
  chargeKey: string,
  over: Partial<Extract<CreditsCommand, { type: 'ChargeMeter' }>> = {},
): CreditsCommand => charge(price, { meter: 'deliver.workspace.webhook', requestId: 'dlv-1', chargeKey, ...over });
export const settle = (chargeKey: string, refund: boolean, reason?: string): CreditsCommand => ({
  type: 'SettleCharge',
  accountId: acct,
  chargeKey,
  refund,
  reason,
  now,
});
export const purchase = (
  ref: string,
  over: Partial<Extract<CreditsCommand, { type: 'PurchaseCredits' }>> = {},
): CreditsCommand => ({
  type: 'PurchaseCredits',
  accountId: acct,
  packId: 'pack_29',
  amountCents: 2900,
  creditsCents: 2900,
  paymentReference: ref,
  provider: 'sandbox',
  source: 'checkout',
  keyId: 'key_1',
  autopayAttemptId: null,
  now,
  ...over,
});

export const grant = (
  reference: string,
  over: Partial<Extract<CreditsCommand, { type: 'GrantCredits' }>> = {},
): CreditsCommand => ({
  type: 'GrantCredits',
  accountId: acct,
  creditsCents: 25_000,
  reference,
  keyId: 'key_1',
  grantedBy: 'operator',
  now,
  ...over,
});
