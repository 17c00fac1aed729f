import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { calendarDay, checkCompanyRecord } from './company-record.schema.js';
import { demoCompanies } from './demo/demo-companies.js';
import { dayNumber, seriesGrowth } from './growth.js';
import { csvHeaderLine, recordToCsvLine } from './import/csv-columns.js';
import { textRecords } from './import/record-sources.js';

describe('company records (validation and normalisation)', () => {
  it('normalises a loose record into the full profile', () => {
    const check = checkCompanyRecord({
      name: '  Acme  ',
      domain: 'HTTPS://www.Acme.io/',
      sectors: ['FinTech', 'fintech', 'Machine Learning'],
      headquarters: { country: 'gb', city: ' London ' },
      stage: 'Series A',
      last_round: { type: 'SERIES_A', date: '2026-03' },
      signals: {
        web_traffic: [
          { date: '2026-06-01', value: 10 },
          { date: '2026-01-01', value: 5 },
        ],
      },
    });
    assert.ok(check.ok);
    assert.deepEqual(check.profile, {
      name: 'Acme',
      domain: 'acme.io',
      description: null,
      sectors: ['fintech', 'machine-learning'],
      tags: [],
      headquarters: { country: 'GB', city: 'London' },
      founded_year: null,
      stage: 'series-a',
      headcount: null,
      total_funding_usd: null,
      last_round: { type: 'series-a', amount_usd: null, date: '2026-03-01' },
      investors: [],
      signals: {
        headcount: [],
        web_traffic: [
          { date: '2026-01-01', value: 5 },
          { date: '2026-06-01', value: 10 },
        ],
        funding: [],
      },
    });
  });

  it('names every bad field in the reason, and refuses unknown fields', () => {
    const check = checkCompanyRecord({
      name: '',
      domain: 'not a domain',
      stage: 'series-z',
      founded_year: 1700,
      headcount: 2.5,
      colour: 'red',
    });
    assert.equal(check.ok, false);
    const reason = (check as { reason: string }).reason;
    for (const part of ['name:', 'domain:', 'stage:', 'founded_year:', 'headcount:', 'colour: unknown field'])
      assert.ok(reason.includes(part), `${part} in ${reason}`);
  });

  it('refuses impossible dates and duplicate points', () => {
    assert.equal(
      checkCompanyRecord({ name: 'A', domain: 'a.io', last_round: { type: 'seed', date: '2026-02-30' } }).ok,
      false,
    );
    assert.equal(
      checkCompanyRecord({ name: 'A', domain: 'a.io', last_round: { type: 'seed', date: '2024-02-29' } }).ok,
      true,
    );
    const dup = checkCompanyRecord({
      name: 'A',
      domain: 'a.io',
      signals: {
        headcount: [
          { date: '2026-01-01', value: 1 },
          { date: '2026-01-01', value: 2 },
        ],
      },
    });
    assert.equal(dup.ok, false);
    assert.match((dup as { reason: string }).reason, /signals\.headcount: two points on 2026-01-01/);
    const bad = checkCompanyRecord({
      name: 'A',
      domain: 'a.io',
      signals: {
        web_traffic: [
          { date: '2026-01-01', value: 1 },
          { date: '2026-13-01', value: 2 },
        ],
        funding: [{ date: '2026-01-01', value: -5 }],
        headcount: [{ date: '2026-01-01', value: 1, note: 'x' }],
      },
    });
    assert.equal(bad.ok, false);
    const reason = (bad as { reason: string }).reason;
    assert.ok(reason.includes('signals.web_traffic.1.date: expected a date'), reason);
    assert.ok(reason.includes('signals.funding.0.value: expected a number from 0'), reason);
    assert.ok(reason.includes('signals.headcount.0.note: unknown field'), reason);
  });

  it('every demo record is valid, and a CSV round trip gives the same profile', async () => {
    const records = [...demoCompanies({ count: 200, asOf: '2026-11-01' })];
    const csv = [
      csvHeaderLine(),
      ...records.map((r) => recordToCsvLine(r as Parameters<typeof recordToCsvLine>[0])),
    ].join('\r\n');
    const rows = [];
    for await (const batch of textRecords(csv, 'csv')) rows.push(...batch);
    assert.equal(rows.length, records.length);
    rows.forEach((row, i) => {
      assert.equal(row.line, i + 2);
      assert.ok('value' in row, JSON.stringify(row));
      const direct = checkCompanyRecord(records[i]);
      assert.ok(direct.ok, direct.ok ? '' : direct.reason);
      assert.deepEqual(checkCompanyRecord(row.value), direct);
    });
  });
});

describe('calendar days', () => {
  /** The calendar's answer, from Date: a day is real when it survives a round trip. */
  function reference(input: string): string | null {
    const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(input);
    if (!m) return null;
    const [year, month, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
    if (year < 1800 || year > 2100) return null;
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
    return `${m[1]}-${m[2]}-${m[3] ?? '01'}`;
  }

  it('accepts exactly the real days (and months) from 1800 to 2100, as the calendar does', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    let checked = 0;
    for (let year = 1798; year <= 2102; year++) {
      for (let month = 0; month <= 13; month++) {
        const ym = `${year}-${two(month)}`;
        assert.equal(calendarDay(ym), reference(ym), ym);
        for (let day = 0; day <= 32; day++, checked++) {
          const ymd = `${ym}-${two(day)}`;
          assert.equal(calendarDay(ymd), reference(ymd), ymd);
        }
      }
    }
    assert.ok(checked > 140_000);
  });

  it('refuses anything else shaped almost like a day', () => {
    for (const input of [
      '',
      '2025',
      '2025-1',
      '2025-1-01',
      '2025-01-1',
      '2025/01/01',
      '2025-01-01T00',
      ' 2025-01-01',
      '2025-01-01 ',
      '20250101',
      '2025_01',
      '2025-0a',
      '2025-01-0a',
      '+025-01-01',
      '-025-01-01',
      '２０２５-01-01',
      '2025-01--1',
      '2025-01-01-01',
    ]) {
      assert.equal(calendarDay(input), null, JSON.stringify(input));
      assert.equal(reference(input), null, JSON.stringify(input));
    }
  });
});

describe('growth', () => {
  it('counts days like the calendar does', () => {
    for (const day of ['1970-01-01', '1800-03-01', '2000-02-29', '2024-12-31', '2026-03-01', '2100-02-28']) {
      assert.equal(dayNumber(day), Date.parse(`${day}T00:00:00Z`) / 86_400_000, day);
    }
  });

  it('compares the latest point with the one nearest a year earlier (at least 90 days back), annualised', () => {
    const g = seriesGrowth([
      { date: '2025-09-01', value: 80 },
      { date: '2025-10-01', value: 100 },
      { date: '2026-08-01', value: 140 },
      { date: '2026-10-01', value: 150 },
    ]);
    assert.deepEqual(g, {
      from_date: '2025-10-01',
      to_date: '2026-10-01',
      from_value: 100,
      to_value: 150,
      days: 365,
      annual_rate: 0.5,
    });
    assert.equal(
      seriesGrowth([
        { date: '2026-09-01', value: 1 },
        { date: '2026-10-01', value: 2 },
      ]),
      null,
      'under 90 days of history',
    );
    assert.equal(
      seriesGrowth([
        { date: '2025-10-01', value: 0 },
        { date: '2026-10-01', value: 2 },
      ])!.annual_rate,
      null,
    );
    assert.equal(seriesGrowth([]), null);
  });
});
