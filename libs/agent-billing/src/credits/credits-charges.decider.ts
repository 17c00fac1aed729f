import { AppError } from '#kernel';
import { autopayTrigger } from './credits-autopay.decider.js';
import type { CreditsEvent } from './credits.events.js';
import type { CreditsState } from './credits.state.js';

/** Spends credits on one metered call; a charge under the threshold may trigger autopay (D19). */
export interface ChargeMeter {
  type: 'ChargeMeter';
  accountId: string;
  meter: string;
  priceCents: number;
  requestId: string;
  keyId: string | null;
  /** D19 threshold in force; a charge that leaves the balance under it may trigger autopay. */
  autopayThresholdCents: number;
  /**
   * Makes the id the autopay attempt gets if this charge triggers one (ids come in with the
   * command; a generator, because almost no charge needs one).
   */
  newAutopayAttemptId: () => string;
  /**
   * Makes the charge idempotent by this key (e.g. a webhook delivery attempt): while the key
   * is open, charging it again decides nothing. Settled later with SettleCharge.
   */
  chargeKey?: string;
  now: Date;
}

/** Closes a keyed charge: kept, or given back. */
export interface SettleCharge {
  type: 'SettleCharge';
  accountId: string;
  chargeKey: string;
  /** Give the price back (the paid work failed) rather than keep it. */
  refund: boolean;
  reason?: string;
  now: Date;
}

/** The charge would take the balance below zero: the HTTP layer turns it into D18's 402. */
export class InsufficientCreditsError extends AppError {
  constructor(
    readonly meter: string,
    readonly requiredCents: number,
    readonly balanceCents: number,
  ) {
    super(
      'payment_required',
      'INSUFFICIENT_CREDITS',
      `The ${meter} call costs ${usd(requiredCents)} USD; the balance is ${usd(balanceCents)} USD.`,
    );
    this.name = 'InsufficientCreditsError';
  }
}

const usd = (cents: number) => (cents / 100).toFixed(2);

export function decideChargeMeter(command: ChargeMeter, state: CreditsState): CreditsEvent[] {
  if (!Number.isInteger(command.priceCents) || command.priceCents < 0)
    throw new Error(`invalid price ${command.priceCents}`);
  const key = command.chargeKey;
  if (key !== undefined) {
    if (key === '') throw new Error('empty charge key');
    // Already charged (a retry after a crash, another dispatcher): not an error.
    if (state.openCharges.has(key)) return [];
  }
  if (state.balanceCents < command.priceCents)
    throw new InsufficientCreditsError(command.meter, command.priceCents, state.balanceCents);
  const charged: CreditsEvent = {
    type: 'MeterCharged',
    data: {
      account_id: command.accountId,
      meter: command.meter,
      price_cents: command.priceCents,
      request_id: command.requestId,
      key_id: command.keyId,
      // Ordinary charges keep their stored shape: no charge_key at all.
      ...(key !== undefined ? { charge_key: key } : {}),
      charged_at: command.now.toISOString(),
    },
  };
  const trigger = autopayTrigger(state, command, state.balanceCents - command.priceCents);
  return trigger ? [charged, trigger] : [charged];
}

export function decideSettleCharge(command: SettleCharge, state: CreditsState): CreditsEvent[] {
  // Idempotent: settling a key already settled (or never charged) decides nothing.
  const open = state.openCharges.get(command.chargeKey);
  if (!open) return [];
  return [
    {
      type: 'MeterChargeSettled',
      data: {
        account_id: command.accountId,
        charge_key: command.chargeKey,
        meter: open.meter,
        price_cents: open.priceCents,
        refunded_cents: command.refund ? open.priceCents : 0,
        reason: command.reason ?? null,
        settled_at: command.now.toISOString(),
      },
    },
  ];
}

export function evolveCharged(
  state: CreditsState,
  event: Extract<CreditsEvent, { type: 'MeterCharged' }>,
): CreditsState {
  // The hot path: a small object copy, the reference set and open charges are shared.
  const next = {
    ...state,
    balanceCents: state.balanceCents - event.data.price_cents,
    chargedCents: state.chargedCents + event.data.price_cents,
    charges: state.charges + 1,
  };
  if (event.data.charge_key === undefined) return next;
  const open = new Map(state.openCharges);
  open.set(event.data.charge_key, { meter: event.data.meter, priceCents: event.data.price_cents });
  return { ...next, openCharges: open };
}

export function evolveSettled(
  state: CreditsState,
  event: Extract<CreditsEvent, { type: 'MeterChargeSettled' }>,
): CreditsState {
  const open = new Map(state.openCharges);
  open.delete(event.data.charge_key);
  return {
    ...state,
    balanceCents: state.balanceCents + event.data.refunded_cents,
    refundedCents: state.refundedCents + event.data.refunded_cents,
    openCharges: open,
  };
}
