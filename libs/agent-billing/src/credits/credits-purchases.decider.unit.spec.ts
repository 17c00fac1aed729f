import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import { purchase, purchased } from '../testing/credits.fixture.js';
import { creditsDecider } from './credits.decider.js';

const spec = deciderSpec(creditsDecider);

describe('credits decider: purchases', () => {
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
});
