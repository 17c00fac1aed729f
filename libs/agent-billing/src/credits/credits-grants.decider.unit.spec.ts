import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fold } from '#kernel';
import { deciderSpec } from '#kernel/testing';
import { charge, charged, grant, granted, purchase, purchased } from '../testing/credits.fixture.js';
import { creditsDecider } from './credits.decider.js';

const spec = deciderSpec(creditsDecider);

describe('credits decider: operator grants (ADR 0061)', () => {
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
