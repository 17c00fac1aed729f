import { Errors } from '#kernel';
import type { CreditsEvent, CreditsGrantor } from './credits.events.js';
import type { CreditsState } from './credits.state.js';

/** Credits the operator adds without a payment (ADR 0061), once per reference. */
export interface GrantCredits {
  type: 'GrantCredits';
  accountId: string;
  creditsCents: number;
  reference: string;
  keyId: string;
  grantedBy: CreditsGrantor;
  now: Date;
}

/** The most one grant may add: 1,000,000 USD (a typo in an amount should not mint millions). */
export const MAX_GRANT_CENTS = 100_000_000;
export const MAX_GRANT_REFERENCE_LENGTH = 200;

/** How a grant's reference is kept among the payment references (a separate namespace). */
export const grantRef = (reference: string) => `grant:${reference}`;

export function decideGrantCredits(command: GrantCredits, state: CreditsState): CreditsEvent[] {
  const details = [];
  if (!Number.isInteger(command.creditsCents) || command.creditsCents <= 0 || command.creditsCents > MAX_GRANT_CENTS)
    details.push({
      path: 'amount',
      message: `must be more than 0 and at most ${(MAX_GRANT_CENTS / 100).toLocaleString('en-US')} USD`,
    });
  const reference = command.reference.trim();
  if (reference === '' || reference !== command.reference || reference.length > MAX_GRANT_REFERENCE_LENGTH)
    details.push({
      path: 'reference',
      message: `must be 1 to ${MAX_GRANT_REFERENCE_LENGTH} characters, without surrounding spaces`,
    });
  if (details.length) throw Errors.validation(details);
  // Idempotent by reference: an operator repeating a command (a retry, a script run twice) grants once.
  if (state.paymentRefs.has(grantRef(reference))) return [];
  return [
    {
      type: 'CreditsGranted',
      data: {
        account_id: command.accountId,
        credits_cents: command.creditsCents,
        reference,
        key_id: command.keyId,
        granted_by: command.grantedBy,
        granted_at: command.now.toISOString(),
      },
    },
  ];
}

export function evolveGranted(
  state: CreditsState,
  event: Extract<CreditsEvent, { type: 'CreditsGranted' }>,
): CreditsState {
  const refs = new Set(state.paymentRefs);
  refs.add(grantRef(event.data.reference));
  return {
    ...state,
    balanceCents: state.balanceCents + event.data.credits_cents,
    grantedCents: state.grantedCents + event.data.credits_cents,
    paymentRefs: refs,
  };
}
