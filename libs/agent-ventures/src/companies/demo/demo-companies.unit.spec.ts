import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCompanyRecord } from '../company-record.schema.js';
import { DEMO_COUNT, demoCompanies } from './demo-companies.js';
import { Prng } from './prng.js';

describe('demo companies', () => {
  it('the same seed and day give the same records; another seed gives others', () => {
    const a = [...demoCompanies({ count: 300, asOf: '2026-11-01' })];
    const b = [...demoCompanies({ count: 300, asOf: '2026-11-01' })];
    assert.deepEqual(a, b);
    assert.notDeepEqual([...demoCompanies({ count: 300, seed: 1, asOf: '2026-11-01' })], a);
  });

  it(`the default set is ${DEMO_COUNT} valid companies with distinct domains and plausible spread`, () => {
    const records = [...demoCompanies({ asOf: '2026-11-01' })];
    assert.equal(records.length, DEMO_COUNT);
    assert.equal(new Set(records.map((r) => r.domain)).size, DEMO_COUNT);
    const stages = new Set<unknown>();
    const countries = new Set<unknown>();
    for (const r of records) {
      const check = checkCompanyRecord(r);
      assert.ok(check.ok, check.ok ? '' : check.reason);
      stages.add(check.profile.stage);
      countries.add(check.profile.headquarters.country);
      for (const p of check.profile.signals.headcount) assert.ok(p.date < '2026-11-01');
    }
    assert.ok(stages.size >= 7 && countries.size >= 15);
  });

  it('the PRNG is a fixed sequence', () => {
    const r = new Prng(42);
    const first = [r.next(), r.next(), r.next()];
    const again = new Prng(42);
    assert.deepEqual([again.next(), again.next(), again.next()], first);
    for (const x of first) assert.ok(x >= 0 && x < 1);
  });
});
