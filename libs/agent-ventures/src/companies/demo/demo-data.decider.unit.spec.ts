import { describe, it } from 'node:test';
import { deciderSpec } from '#kernel/testing';
import type { DemoDataEvent } from '../company.events.js';
import { demoDataDecider } from './demo-data.decider.js';

const spec = deciderSpec(demoDataDecider);
const now = new Date('2026-03-01T10:00:00Z');
const at = now.toISOString();
const claim = { type: 'ClaimDemoData' as const, storeHasCompanies: false, seed: 7, count: 100, now };
const claimed: DemoDataEvent = { type: 'DemoCompaniesClaimed', data: { seed: 7, count: 100, as_of: '2026-03-01', at } };
const complete = { type: 'CompleteDemoData' as const, imported: 100, updated: 0, unchanged: 0, now };
const seeded: DemoDataEvent = {
  type: 'DemoCompaniesSeeded',
  data: { seed: 7, count: 100, imported: 100, updated: 0, unchanged: 0, at },
};
const skipped: DemoDataEvent = {
  type: 'DemoCompaniesSkipped',
  data: { reason: 'the store already has companies', at },
};

describe('demo data decider (claim once per store)', () => {
  it('claims a fresh store, once: a second claim (another process) gets nothing', () => {
    spec.given([]).when(claim).then([claimed]);
    spec.given([claimed]).when(claim).then([]);
  });

  it('skips a store that has companies of its own, for good', () => {
    spec
      .given([])
      .when({ ...claim, storeHasCompanies: true })
      .then([skipped]);
    spec.given([skipped]).when(claim).then([]);
  });

  it("completes a claim once, with the claim's seed and count", () => {
    spec.given([claimed]).when(complete).then([seeded]);
    spec.given([claimed, seeded]).when(complete).then([]);
    spec.given([]).when(complete).then([]);
  });
});
