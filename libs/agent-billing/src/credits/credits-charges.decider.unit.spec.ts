import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { InsufficientCreditsError } from './credits-charges.decider.js';
import {
  charge,
  charged,
  chargeSettled,
  keyedCharge,
  keyedCharged,
  purchased,
  settle,
} from '../testing/credits.fixture.js';
import { creditsDecider } from './credits.decider.js';

const spec = deciderSpec(creditsDecider);

describe('credits decider: charges', () => {
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
});
