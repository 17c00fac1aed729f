import { assertNever, type Decider } from '#kernel';
import {
  decideDisableAutopay,
  decideEnableAutopay,
  decideFailAutopay,
  type DisableAutopay,
  type EnableAutopay,
  evolveAutopay,
  type FailAutopay,
} from './credits-autopay.decider.js';
import {
  type ChargeMeter,
  decideChargeMeter,
  decideSettleCharge,
  evolveCharged,
  evolveSettled,
  type SettleCharge,
} from './credits-charges.decider.js';
import { decideGrantCredits, evolveGranted, type GrantCredits } from './credits-grants.decider.js';
import { decidePurchaseCredits, evolvePurchased, type PurchaseCredits } from './credits-purchases.decider.js';
import type { CreditsEvent } from './credits.events.js';
import { type CreditsState, initialCreditsState } from './credits.state.js';

export type CreditsCommand =
  ChargeMeter | SettleCharge | PurchaseCredits | GrantCredits | EnableAutopay | DisableAutopay | FailAutopay;

/**
 * The prepaid credits ledger of one account (stream `credits-{account}`). Pure: the ledger
 * service keeps the folded state of hot accounts in memory and appends with the exact revision.
 * Each decision lives with its events in its own file: charges (and the autopay they trigger),
 * purchases, grants, autopay.
 */
export const creditsDecider: Decider<CreditsCommand, CreditsEvent, CreditsState> = {
  initialState: initialCreditsState,

  evolve(state, event) {
    switch (event.type) {
      case 'MeterCharged':
        return evolveCharged(state, event);
      case 'MeterChargeSettled':
        return evolveSettled(state, event);
      case 'CreditsPurchased':
        return evolvePurchased(state, event);
      case 'CreditsGranted':
        return evolveGranted(state, event);
      case 'AutopayEnabled':
      case 'AutopayDisabled':
      case 'AutopayTriggered':
      case 'AutopayFailed':
        return evolveAutopay(state, event);
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ChargeMeter':
        return decideChargeMeter(command, state);
      case 'SettleCharge':
        return decideSettleCharge(command, state);
      case 'PurchaseCredits':
        return decidePurchaseCredits(command, state);
      case 'GrantCredits':
        return decideGrantCredits(command, state);
      case 'EnableAutopay':
        return decideEnableAutopay(command, state);
      case 'DisableAutopay':
        return decideDisableAutopay(command, state);
      case 'FailAutopay':
        return decideFailAutopay(command, state);
      default:
        return assertNever(command);
    }
  },
};

/**
 * How much one event moves the balance, in cents: what `evolve` adds to `balanceCents` (a unit
 * test holds the two together). Lets a reader walk the ledger with a running balance without
 * folding the whole state (GET /billing/ledger).
 */
export function creditsBalanceDelta(event: CreditsEvent): number {
  switch (event.type) {
    case 'CreditsPurchased':
    case 'CreditsGranted':
      return event.data.credits_cents;
    case 'MeterCharged':
      return -event.data.price_cents;
    case 'MeterChargeSettled':
      return event.data.refunded_cents;
    case 'AutopayEnabled':
    case 'AutopayDisabled':
    case 'AutopayTriggered':
    case 'AutopayFailed':
      return 0;
    default:
      return assertNever(event);
  }
}
