import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import {
  autopayView,
  creditsBalanceDelta,
  creditsDecider,
  type CreditsCommand,
  InsufficientCreditsError,
} from './credits.decider.js';
import { CREDITS_EVENT_TYPES, type CreditsEvent } from './credits.events.js';

const spec = deciderSpec(creditsDecider);
const now = new Date('2026-03-01T10:00:00Z');
const at = now.toISOString();
const acct = 'acct_1';

const purchased = (
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
const charged = (price: number, requestId = 'req-1'): CreditsEvent => ({
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
const keyedCharged = (price: number, chargeKey: string, requestId = 'dlv-1'): CreditsEvent => ({
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
const chargeSettled = (
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
const granted = (credits: number, reference = 'PO-1234'): CreditsEvent => ({
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
const autopayOn: CreditsEvent = {
  type: 'AutopayEnabled',
  data: { account_id: acct, payment_method_id: 'pm_1', pack_id: 'pack_99', enabled_at: at },
};
const triggered = (balance: number, attempt = 'att_1'): CreditsEvent => ({
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

const charge = (
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
const keyedCharge = (
  price: number,
  chargeKey: string,
  over: Partial<Extract<CreditsCommand, { type: 'ChargeMeter' }>> = {},
): CreditsCommand => charge(price, { meter: 'deliver.workspace.webhook', requestId: 'dlv-1', chargeKey, ...over });
const settle = (chargeKey: string, refund: boolean, reason?: string): CreditsCommand => ({
  type: 'SettleCharge',
  accountId: acct,
  chargeKey,
  refund,
  reason,
  now,
});
const purchase = (
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

const grant = (
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

describe('credits decider', () => {
  it('credits a purchase', () =>
    spec
      .given([])
      .when(purchase('cs_1'))
      .then([purchased(2900)]));

  it('credits a payment reference once: a repeated fulfilment is a no-op', () => {
    spec
      .given([purchased(2900)])
      .when(purchase('cs_1'))
      .then([]);
    spec
      .given([purchased(2900)])
      .when(purchase('cs_2'))
      .then([purchased(2900, 'cs_2')]);
  });

  it('charges a meter when the balance covers the price, down to exactly zero', () => {
    spec
      .given([purchased(2900)])
      .when(charge(350))
      .then([charged(350)]);
    spec
      .given([purchased(350)])
      .when(charge(350))
      .then([charged(350)]);
  });

  it('refuses a charge the balance does not cover with InsufficientCreditsError (402)', () => {
    spec
      .given([])
      .when(charge(350))
      .thenThrows(
        (e) =>
          e instanceof InsufficientCreditsError &&
          e.kind === 'payment_required' &&
          e.balanceCents === 0 &&
          e.requiredCents === 350,
      );
    spec
      .given([purchased(700), charged(350), charged(350)])
      .when(charge(1))
      .thenThrows((e) => e.code === 'INSUFFICIENT_CREDITS' && e.balanceCents === 0);
  });

  it('folds to balance = purchases − charges (a replay reproduces the balance)', () => {
    const events = [purchased(2900), charged(350), charged(250, 'r2'), purchased(11000, 'cs_2'), charged(200, 'r3')];
    const state = fold(creditsDecider, events);
    assert.equal(state.balanceCents, 2900 - 350 - 250 + 11000 - 200);
    assert.equal(state.purchasedCents, 13900);
    assert.equal(state.chargedCents, 800);
    assert.equal(state.charges, 3);
    assert.deepEqual([...state.paymentRefs].sort(), ['cs_1', 'cs_2']);
  });

  describe('keyed charges (webhook deliveries: charged before the push, settled after)', () => {
    const key = 'dlv_1:a1';

    it('charges a key once: the same key again while open decides nothing, even on an empty balance', () => {
      spec
        .given([purchased(2900)])
        .when(keyedCharge(100, key))
        .then([keyedCharged(100, key)]);
      spec
        .given([purchased(2900), keyedCharged(100, key)])
        .when(keyedCharge(100, key))
        .then([]);
      spec
        .given([purchased(100), keyedCharged(100, key)])
        .when(keyedCharge(100, key))
        .then([]);
      spec
        .given([purchased(2900), keyedCharged(100, key)])
        .when(keyedCharge(100, 'dlv_1:a2', { requestId: 'dlv-2' }))
        .then([keyedCharged(100, 'dlv_1:a2', 'dlv-2')]);
    });

    it('an ordinary charge keeps its stored shape (no charge_key) and opens nothing', () => {
      const [event] = creditsDecider.decide(charge(350), fold(creditsDecider, [purchased(2900)]));
      assert.ok(event?.type === 'MeterCharged' && !('charge_key' in event.data));
      const before = fold(creditsDecider, [purchased(2900)]);
      const after = creditsDecider.evolve(before, charged(350));
      assert.equal(after.openCharges, before.openCharges, 'the hot path shares the map');
    });

    it('refuses a new key the balance does not cover (402), like any charge', () =>
      spec
        .given([purchased(50)])
        .when(keyedCharge(100, key))
        .thenThrows((e) => e instanceof InsufficientCreditsError && e.balanceCents === 50));

    it('settles a kept charge: the key closes, the balance stays charged', () => {
      spec
        .given([purchased(2900), keyedCharged(100, key)])
        .when(settle(key, false))
        .then([chargeSettled(100, key, false)]);
      const state = fold(creditsDecider, [purchased(2900), keyedCharged(100, key), chargeSettled(100, key, false)]);
      assert.equal(state.balanceCents, 2800);
      assert.equal(state.refundedCents, 0);
      assert.equal(state.openCharges.size, 0);
    });

    it('settles a refunded charge: the price goes back into the balance and the refunded total', () => {
      spec
        .given([purchased(2900), keyedCharged(100, key)])
        .when(settle(key, true, 'http_500'))
        .then([chargeSettled(100, key, true, 'http_500')]);
      const state = fold(creditsDecider, [
        purchased(2900),
        keyedCharged(100, key),
        charged(350),
        chargeSettled(100, key, true, 'http_500'),
      ]);
      assert.equal(state.balanceCents, 2900 - 350);
      assert.equal(state.refundedCents, 100);
      assert.equal(state.chargedCents, 450, 'charges stay counted; the refund is apart');
      assert.equal(state.charges, 2);
      assert.equal(state.openCharges.size, 0);
    });

    it('settling a key not open (never charged, or already settled) decides nothing', () => {
      spec
        .given([purchased(2900)])
        .when(settle(key, true))
        .then([]);
      spec
        .given([purchased(2900), keyedCharged(100, key), chargeSettled(100, key, true)])
        .when(settle(key, true))
        .then([]);
      spec
        .given([purchased(2900), keyedCharged(100, key), chargeSettled(100, key, false)])
        .when(settle(key, true))
        .then([]);
    });

    it('keeps each open key with its meter and price until settled', () => {
      const state = fold(creditsDecider, [
        purchased(2900),
        keyedCharged(100, 'k1'),
        keyedCharged(100, 'k2'),
        chargeSettled(100, 'k1', false),
      ]);
      assert.deepEqual([...state.openCharges], [['k2', { meter: 'deliver.workspace.webhook', priceCents: 100 }]]);
    });
  });

  describe('operator grants (ADR 0061)', () => {
    it('grants credits under a reference', () =>
      spec
        .given([])
        .when(grant('PO-1234'))
        .then([granted(25_000)]));

    it('grants a reference once: the same reference again is a no-op, whatever the amount', () => {
      spec
        .given([granted(25_000)])
        .when(grant('PO-1234'))
        .then([]);
      spec
        .given([granted(25_000), charged(350)])
        .when(grant('PO-1234', { creditsCents: 99 }))
        .then([]);
      spec
        .given([granted(25_000)])
        .when(grant('PO-1235'))
        .then([granted(25_000, 'PO-1235')]);
    });

    it('keeps grant and payment references apart: neither makes the other a no-op', () => {
      spec
        .given([purchased(2900, 'cs_1')])
        .when(grant('cs_1'))
        .then([granted(25_000, 'cs_1')]);
      spec
        .given([granted(25_000, 'cs_1')])
        .when(purchase('cs_1'))
        .then([purchased(2900)]);
    });

    it('counts grants in the balance, apart from purchases; a charge spends them', () => {
      const state = fold(creditsDecider, [purchased(2900), granted(25_000), charged(350)]);
      assert.equal(state.balanceCents, 2900 + 25_000 - 350);
      assert.equal(state.purchasedCents, 2900);
      assert.equal(state.grantedCents, 25_000);
      spec
        .given([granted(350)])
        .when(charge(350))
        .then([charged(350)]);
    });

    it('refuses an amount that is not 1 cent to 1,000,000 USD, or a reference empty, padded or over 200 characters', () => {
      for (const creditsCents of [0, -100, 12.5, 100_000_001])
        spec
          .given([])
          .when(grant('PO-1', { creditsCents }))
          .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'amount');
      for (const reference of ['', '  ', ' PO-1', 'x'.repeat(201)])
        spec
          .given([])
          .when(grant(reference))
          .thenThrows((e) => e.code === 'VALIDATION_FAILED' && e.extra.details[0].path === 'reference');
      spec
        .given([])
        .when(grant('x'.repeat(200), { creditsCents: 100_000_000 }))
        .then([granted(100_000_000, 'x'.repeat(200))]);
    });
  });

  describe('autopay (D19)', () => {
    it('triggers one top-up when a charge leaves the balance under the threshold and a method is saved', () =>
      spec
        .given([purchased(1200), autopayOn])
        .when(charge(350))
        .then([charged(350), triggered(850)]));

    it('does not trigger above the threshold, without a saved method, or while one is pending', () => {
      spec
        .given([purchased(2900), autopayOn])
        .when(charge(350))
        .then([charged(350)]);
      spec
        .given([purchased(1200)])
        .when(charge(350))
        .then([charged(350)]);
      spec
        .given([purchased(1200), autopayOn, charged(350), triggered(850)])
        .when(charge(350, { newAutopayAttemptId: () => 'att_2' }))
        .then([charged(350)]);
    });

    it('a balance exactly at the threshold is not under it', () =>
      spec
        .given([purchased(1350), autopayOn])
        .when(charge(350))
        .then([charged(350)]));

    it('the purchase settling the attempt clears the pending state; the next low balance triggers again', () => {
      const settled = purchased(11000, 'pi_1', {
        pack_id: 'pack_99',
        amount_cents: 9900,
        source: 'autopay',
        autopay_attempt_id: 'att_1',
        provider: 'sandbox',
      });
      const history = [purchased(1200), autopayOn, charged(350), triggered(850), settled];
      const state = fold(creditsDecider, history);
      assert.equal(state.autopayPending, null);
      assert.equal(state.balanceCents, 850 + 11000);
      // Spend down under the threshold again: a second attempt is allowed now.
      spec
        .given([...history, charged(11000 + 850 - 1000 - 0, 'r9')])
        .when(charge(100, { newAutopayAttemptId: () => 'att_2' }))
        .then([charged(100), triggered(900, 'att_2')]);
    });

    it('a provider error (outage, timeout) fails the attempt but leaves autopay on; the next charge under the threshold tries again', () => {
      const history = [purchased(1200), autopayOn, charged(350), triggered(850)];
      const providerFailed: CreditsEvent = {
        type: 'AutopayFailed',
        data: { account_id: acct, attempt_id: 'att_1', reason: 'provider_error', failed_at: at },
      };
      spec
        .given(history)
        .when({ type: 'FailAutopay', accountId: acct, attemptId: 'att_1', reason: 'provider_error', now })
        .then([providerFailed]);
      const state = fold(creditsDecider, [...history, providerFailed]);
      assert.equal(state.autopay.status, 'on');
      assert.equal(state.autopayPending, null);
      spec
        .given([...history, providerFailed])
        .when(charge(100, { newAutopayAttemptId: () => 'att_2' }))
        .then([charged(100), triggered(750, 'att_2')]);
    });

    it('a failed attempt clears the pending state and turns autopay off until re-enabled', () => {
      spec
        .given([purchased(1200), autopayOn, charged(350), triggered(850)])
        .when({ type: 'FailAutopay', accountId: acct, attemptId: 'att_1', reason: 'card_declined', now })
        .then([
          {
            type: 'AutopayFailed',
            data: { account_id: acct, attempt_id: 'att_1', reason: 'card_declined', failed_at: at },
          },
          { type: 'AutopayDisabled', data: { account_id: acct, reason: 'payment_failed', disabled_at: at } },
        ]);
      const failed = fold(creditsDecider, [
        purchased(1200),
        autopayOn,
        charged(350),
        triggered(850),
        {
          type: 'AutopayFailed',
          data: { account_id: acct, attempt_id: 'att_1', reason: 'card_declined', failed_at: at },
        },
        { type: 'AutopayDisabled', data: { account_id: acct, reason: 'payment_failed', disabled_at: at } },
      ]);
      assert.equal(failed.autopayPending, null);
      assert.deepEqual(autopayView(failed), {
        enabled: false,
        pack_id: null,
        payment_method_id: null,
        disabled_reason: 'payment_failed',
        last_failure: 'card_declined',
        pending: null,
      });
      // No more triggers while off.
      assert.deepEqual(creditsDecider.decide(charge(100, { newAutopayAttemptId: () => 'att_2' }), failed), [
        { ...charged(100) },
      ]);
    });

    it('ignores a failure report for an attempt that is not in flight', () => {
      spec
        .given([purchased(1200), autopayOn])
        .when({ type: 'FailAutopay', accountId: acct, attemptId: 'att_x', reason: 'x', now })
        .then([]);
      spec
        .given([purchased(1200), autopayOn, charged(350), triggered(850)])
        .when({ type: 'FailAutopay', accountId: acct, attemptId: 'att_x', reason: 'x', now })
        .then([]);
    });

    it('enables, re-enables with another pack, and disables on request (each idempotent)', () => {
      spec
        .given([])
        .when({ type: 'EnableAutopay', accountId: acct, paymentMethodId: 'pm_1', packId: 'pack_99', now })
        .then([autopayOn]);
      spec
        .given([autopayOn])
        .when({ type: 'EnableAutopay', accountId: acct, paymentMethodId: 'pm_1', packId: 'pack_99', now })
        .then([]);
      spec
        .given([autopayOn])
        .when({ type: 'EnableAutopay', accountId: acct, paymentMethodId: 'pm_1', packId: 'pack_499', now })
        .then([
          {
            type: 'AutopayEnabled',
            data: { account_id: acct, payment_method_id: 'pm_1', pack_id: 'pack_499', enabled_at: at },
          },
        ]);
      spec
        .given([autopayOn])
        .when({ type: 'DisableAutopay', accountId: acct, now })
        .then([{ type: 'AutopayDisabled', data: { account_id: acct, reason: 'requested', disabled_at: at } }]);
      spec.given([]).when({ type: 'DisableAutopay', accountId: acct, now }).then([]);
    });
  });
});

describe('creditsBalanceDelta', () => {
  it('moves the balance exactly as evolve does, for every event type', () => {
    const events: CreditsEvent[] = [
      purchased(2900),
      granted(25_000),
      charged(5),
      keyedCharged(100, 'k1'),
      chargeSettled(100, 'k1', true),
      keyedCharged(100, 'k2'),
      chargeSettled(100, 'k2', false),
      autopayOn,
      triggered(500),
      { type: 'AutopayFailed', data: { account_id: acct, attempt_id: 'att_1', reason: 'x', failed_at: at } },
      { type: 'AutopayDisabled', data: { account_id: acct, reason: 'requested', disabled_at: at } },
    ];
    assert.deepEqual(
      [...new Set(events.map((e) => e.type))].sort(),
      [...CREDITS_EVENT_TYPES].sort(),
      'every stored type is covered',
    );
    let state = creditsDecider.initialState;
    for (const e of events) {
      const next = creditsDecider.evolve(state, e);
      assert.equal(creditsBalanceDelta(e), next.balanceCents - state.balanceCents, e.type);
      state = next;
    }
  });
});
