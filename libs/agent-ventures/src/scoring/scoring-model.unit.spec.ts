import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkCompanyRecord } from '../companies/company-record.schema.js';
import type { CompanyProfileData } from '../companies/company.profile.js';
import { demoCompanies } from '../companies/demo/demo-companies.js';
import { COMPONENT_NAMES, COMPONENT_WEIGHTS, logScale, MODEL_VERSION, scoreCompany } from './scoring-model.js';

const AT = '2026-11-01T12:00:00.000Z';

function profile(record: Record<string, unknown>): CompanyProfileData {
  const check = checkCompanyRecord({ name: 'Test Co', domain: 'test.example', ...record });
  assert.ok(check.ok, check.ok ? '' : check.reason);
  return check.profile;
}

const demo = [...demoCompanies({ count: 400, asOf: '2026-11-01' })].map((r) => profile(r as Record<string, unknown>));

describe('scoring model', () => {
  it('weights are whole percentages summing to 100, one per named component', () => {
    assert.deepEqual(Object.keys(COMPONENT_WEIGHTS), [...COMPONENT_NAMES]);
    assert.equal(
      Object.values(COMPONENT_WEIGHTS).reduce((a, b) => a + b, 0),
      100,
    );
  });

  it('components sum to the score exactly, by the documented rule (in hundredths)', () => {
    for (const p of demo) {
      const s = scoreCompany(p, AT);
      assert.ok(s.score >= 0 && s.score <= 100);
      assert.equal(s.components.map((c) => c.name).join(), COMPONENT_NAMES.join());
      let hundredths = 0;
      for (const c of s.components) {
        // value has one decimal, weight is the whole percentage, contribution = value × weight rounded half up to 2 decimals.
        const tenths = Math.round(c.value * 10);
        assert.equal(c.value, tenths / 10);
        assert.equal(c.weight, COMPONENT_WEIGHTS[c.name] / 100);
        const expected = Math.floor((tenths * COMPONENT_WEIGHTS[c.name] + 5) / 10);
        assert.equal(Math.round(c.contribution * 100), expected, `${c.name} of ${p.domain}`);
        hundredths += expected;
      }
      assert.equal(Math.round(s.score * 100), hundredths, p.domain);
      assert.equal(s.score, hundredths / 100);
    }
  });

  it('is deterministic: same profile and time, same score, explanation included', () => {
    for (const p of demo.slice(0, 50)) assert.deepEqual(scoreCompany(structuredClone(p), AT), scoreCompany(p, AT));
    const s = scoreCompany(demo[0]!, AT);
    assert.equal(s.model_version, MODEL_VERSION);
    assert.equal(s.computed_at, AT);
    assert.match(s.explanation, /^Score [\d.]+\/100\. Strongest: .+\. Weakest: .+\.$/);
  });

  it('spreads the demo companies over the scale', () => {
    const scores = demo.map((p) => scoreCompany(p, AT).score).sort((a, b) => a - b);
    assert.ok(scores[0]! < 35 && scores[scores.length - 1]! > 65, `range ${scores[0]}..${scores[scores.length - 1]}`);
    assert.ok(new Set(scores).size > scores.length * 0.8, 'few ties');
  });

  it('an empty profile scores 0; missing data earns nothing', () => {
    const s = scoreCompany(profile({}), AT);
    assert.equal(s.score, 0);
    for (const c of s.components) assert.equal(c.value, 0);
  });

  it('what moves the score: traffic, growth, a recent round, sector, lean funding', () => {
    const base = {
      sectors: ['saas'],
      headcount: 40,
      total_funding_usd: 20_000_000,
      investors: ['A', 'B'],
      last_round: { type: 'series-a', amount_usd: 10_000_000, date: '2025-05-01' },
      signals: {
        headcount: [
          { date: '2025-10-01', value: 30 },
          { date: '2026-10-01', value: 40 },
        ],
        web_traffic: [
          { date: '2025-10-01', value: 20_000 },
          { date: '2026-10-01', value: 40_000 },
        ],
      },
    };
    const score = (over: Record<string, unknown>) => scoreCompany(profile({ ...base, ...over }), AT);
    const component = (over: Record<string, unknown>, name: string) =>
      score(over).components.find((c) => c.name === name)!.value;
    const start = score({}).score;
    assert.ok(
      score({
        signals: {
          ...base.signals,
          web_traffic: [
            { date: '2025-10-01', value: 20_000 },
            { date: '2026-10-01', value: 400_000 },
          ],
        },
      }).score > start,
    );
    assert.ok(score({ last_round: { ...base.last_round, date: '2026-09-01' } }).score > start);
    assert.ok(score({ sectors: ['ai'] }).score > start);
    assert.ok(score({ total_funding_usd: 2_000_000 }).score > start);
    assert.ok(score({ headcount: 400 }).score > start);
    // The market value is the best of the company's sectors.
    assert.equal(component({ sectors: ['saas', 'ai'] }, 'market'), 95);
    assert.equal(component({ sectors: ['something-else'] }, 'market'), 50);
    // A round's recency is measured at computed_at: the same company scored later has less momentum.
    const p = profile(base);
    assert.ok(scoreCompany(p, '2027-11-01T00:00:00.000Z').score < scoreCompany(p, AT).score);
  });

  it('logScale is 0 at or below lo, 1 at or above hi, log-linear between', () => {
    assert.equal(logScale(0, 10, 1000), 0);
    assert.equal(logScale(10, 10, 1000), 0);
    assert.equal(logScale(100, 10, 1000), 0.5);
    assert.equal(logScale(5000, 10, 1000), 1);
  });
});
