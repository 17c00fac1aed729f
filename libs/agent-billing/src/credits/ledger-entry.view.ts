import type { CreditsEvent } from './credits.events.js';

const usd = (cents: number) => cents / 100;

/**
 * One ledger entry as the API shows it (`recent_ledger` of /agents/status, GET /billing/ledger):
 * its revision as `sequence`, the signed amount in USD (negative for a charge, positive for
 * credits in; 0 for the autopay bookkeeping) and the fields of its kind.
 */
export function ledgerEntryView(entry: {
  revision: number;
  recorded_at: string;
  event: CreditsEvent;
}): Record<string, unknown> {
  const e = entry.event;
  const base = { sequence: entry.revision, type: e.type, recorded_at: entry.recorded_at };
  switch (e.type) {
    case 'CreditsPurchased':
      return {
        ...base,
        amount_usd: usd(e.data.credits_cents),
        paid_usd: usd(e.data.amount_cents),
        pack_id: e.data.pack_id,
        source: e.data.source,
        provider: e.data.provider,
        payment_reference: e.data.payment_reference,
        at: e.data.purchased_at,
      };
    case 'CreditsGranted':
      return {
        ...base,
        amount_usd: usd(e.data.credits_cents),
        reference: e.data.reference,
        granted_by: e.data.granted_by,
        key_id: e.data.key_id,
        at: e.data.granted_at,
      };
    case 'MeterCharged':
      return {
        ...base,
        amount_usd: -usd(e.data.price_cents),
        meter: e.data.meter,
        request_id: e.data.request_id,
        key_id: e.data.key_id,
        ...(e.data.charge_key !== undefined ? { charge_key: e.data.charge_key } : {}),
        at: e.data.charged_at,
      };
    case 'MeterChargeSettled':
      // A refunded charge is a credit entry; a kept one moves no money (the charge was the entry).
      return {
        ...base,
        amount_usd: usd(e.data.refunded_cents),
        kind: e.data.refunded_cents > 0 ? 'refund' : 'kept',
        meter: e.data.meter,
        charge_key: e.data.charge_key,
        price_usd: usd(e.data.price_cents),
        reason: e.data.reason,
        at: e.data.settled_at,
      };
    case 'AutopayEnabled':
      return {
        ...base,
        amount_usd: 0,
        pack_id: e.data.pack_id,
        payment_method_id: e.data.payment_method_id,
        at: e.data.enabled_at,
      };
    case 'AutopayDisabled':
      return { ...base, amount_usd: 0, reason: e.data.reason, at: e.data.disabled_at };
    case 'AutopayTriggered':
      return {
        ...base,
        amount_usd: 0,
        attempt_id: e.data.attempt_id,
        pack_id: e.data.pack_id,
        balance_usd: usd(e.data.balance_cents),
        at: e.data.triggered_at,
      };
    case 'AutopayFailed':
      return { ...base, amount_usd: 0, attempt_id: e.data.attempt_id, reason: e.data.reason, at: e.data.failed_at };
  }
}
