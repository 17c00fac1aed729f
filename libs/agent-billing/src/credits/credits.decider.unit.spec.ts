import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import {
  acct,
  at,
  autopayOn,
  charged,
  chargeSettled,
  granted,
  keyedCharged,
  purchased,
  triggered,
} from '../testing/credits.fixture.js';
import { creditsBalanceDelta, creditsDecider } from './credits.decider.js';
import { CREDITS_EVENT_TYPES, type CreditsEvent } from './credits.events.js';

describe('credits decider: the ledger', () => {
  it('folds to balance = purchases − charges (a replay reproduces the balance)', () => {
    const events = [purchased(2900), charged(350), charged(250, 'r2'), purchased(11000, 'cs_2'), charged(200, 'r3')];
    const state = fold(creditsDecider, events);
    assert.equal(state.balanceCents, 2900 - 350 - 250 + 11000 - 200);
    assert.equal(state.purchasedCents, 13900);
    assert.equal(state.chargedCents, 800);
    assert.equal(state.charges, 3);
    assert.deepEqual([...state.paymentRefs].sort(), ['cs_1', 'cs_2']);
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
