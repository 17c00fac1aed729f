import type { PackId } from '#agent-contract/vocabulary';
import type { CreditsEvent, PaymentProviderName, PurchaseSource } from './credits.events.js';
import type { CreditsState } from './credits.state.js';

/** Credits a paid pack (a checkout, a top-up, an autopay attempt) once per payment reference. */
export interface PurchaseCredits {
  type: 'PurchaseCredits';
  accountId: string;
  packId: PackId;
  amountCents: number;
  creditsCents: number;
  paymentReference: string;
  provider: PaymentProviderName;
  source: PurchaseSource;
  keyId: string | null;
  autopayAttemptId: string | null;
  now: Date;
}

export function decidePurchaseCredits(command: PurchaseCredits, state: CreditsState): CreditsEvent[] {
  // Idempotent by payment reference: a webhook delivered three times credits once.
  if (state.paymentRefs.has(command.paymentReference)) return [];
  if (!Number.isInteger(command.creditsCents) || command.creditsCents <= 0)
    throw new Error(`invalid credits ${command.creditsCents}`);
  return [
    {
      type: 'CreditsPurchased',
      data: {
        account_id: command.accountId,
        pack_id: command.packId,
        amount_cents: command.amountCents,
        credits_cents: command.creditsCents,
        payment_reference: command.paymentReference,
        provider: command.provider,
        source: command.source,
        key_id: command.keyId,
        autopay_attempt_id: command.autopayAttemptId,
        purchased_at: command.now.toISOString(),
      },
    },
  ];
}

/** A purchase that pays the autopay attempt in flight settles it. */
export function evolvePurchased(
  state: CreditsState,
  event: Extract<CreditsEvent, { type: 'CreditsPurchased' }>,
): CreditsState {
  const refs = new Set(state.paymentRefs);
  refs.add(event.data.payment_reference);
  const settles = state.autopayPending !== null && state.autopayPending.attemptId === event.data.autopay_attempt_id;
  return {
    ...state,
    balanceCents: state.balanceCents + event.data.credits_cents,
    purchasedCents: state.purchasedCents + event.data.credits_cents,
    paymentRefs: refs,
    autopayPending: settles ? null : state.autopayPending,
  };
}
