import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { acct, at, autopayOn, charge, charged, now, purchased, triggered } from '../testing/credits.fixture.js';
import { autopayView } from './credits-autopay.decider.js';
import { creditsDecider } from './credits.decider.js';
import type { CreditsEvent } from './credits.events.js';

const spec = deciderSpec(creditsDecider);

describe('credits decider: autopay (D19)', () => {
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
