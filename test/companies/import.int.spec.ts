import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  COMPANY_STREAM_PREFIX,
  CompanyImporter,
  type CompanyProfileData,
  companyDecider,
  companyIdFor,
  companyStream,
  csvHeaderLine,
  demoCompanies,
  fileRecords,
  type ImportRejection,
  ImportSourceError,
  recordToCsvLine,
  textRecords,
  valueRecords,
} from '#agent-ventures';
import { FakeClock, fold } from '#kernel';
import { type RecordedEvent, SqliteEventStore } from '#eventstore';

const clock = new FakeClock('2026-11-01T10:00:00.000Z');

async function allEvents(events: SqliteEventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of events.readAll()) out.push(e);
  return out;
}

async function profileOf(events: SqliteEventStore, id: string): Promise<CompanyProfileData | null> {
  const stored: Array<{ type: string; data: unknown }> = [];
  for await (const e of events.readStream(companyStream(id))) stored.push({ type: e.type, data: e.data });
  return fold(companyDecider, stored as never).profile;
}

const good = (name: string, domain: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ name, domain, sectors: ['fintech'], headcount: 10, ...extra });

describe('company import (embedded event store)', () => {
  let dir: string;
  let events: SqliteEventStore;
  let importer: CompanyImporter;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'companies-import-'));
    events = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
    importer = new CompanyImporter(events, clock);
  });
  after(async () => {
    await events?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('JSON Lines with good and bad lines: bad ones reported by line number and skipped, good ones imported whole', async () => {
    const lines = [
      good('Alpha Pay', 'alpha-pay.example'), // 1
      '', // 2: blank, not a record
      '{"name": "Broken", "domain": ', // 3: not JSON
      good('Beta Health', 'beta-health.example', { stage: 'series-q' }), // 4: bad stage
      good('Gamma AI', 'gamma.example', {
        signals: {
          headcount: [
            { date: '2026-01-01', value: 3 },
            { date: '2026-06-01', value: 9 },
          ],
        },
      }), // 5
      JSON.stringify({ name: 'No Domain' }), // 6
      good('Delta', 'delta.example', { unknown_field: 1 }), // 7: unknown field: the whole record is refused
      '[1, 2]', // 8
    ].join('\n');
    const rejected: ImportRejection[] = [];
    const summary = await importer.run(textRecords(lines, 'jsonl'), {
      source: 'test',
      onRejected: (r) => rejected.push(r),
    });
    assert.deepEqual({ ...summary, ms: 0 }, { read: 7, imported: 2, updated: 0, unchanged: 0, rejected: 5, ms: 0 });
    assert.deepEqual(
      rejected.map((r) => r.line),
      [3, 4, 6, 7, 8],
    );
    assert.match(rejected[0]!.reason, /^invalid JSON/);
    assert.match(rejected[1]!.reason, /^stage: expected a stage/);
    assert.match(rejected[2]!.reason, /^domain: /);
    assert.match(rejected[3]!.reason, /unknown_field: unknown field/);
    assert.match(rejected[4]!.reason, /expected a JSON object/);

    // Nothing partial: exactly one event per good record, none for the bad ones.
    const stored = await allEvents(events);
    assert.deepEqual(
      stored.map((e) => [e.stream, e.type]),
      [
        [companyStream(companyIdFor('alpha-pay.example')), 'CompanyImported'],
        [companyStream(companyIdFor('gamma.example')), 'CompanyImported'],
      ],
    );
    const gamma = await profileOf(events, companyIdFor('gamma.example'));
    assert.equal(gamma?.signals.headcount.length, 2);
    assert.equal((stored[0]!.data as { at: string }).at, '2026-11-01T10:00:00.000Z');
    assert.equal((stored[0]!.data as { source: string }).source, 'test');
  });

  it('re-importing the same file appends nothing; a changed record appends one CompanyUpdated with the changed fields', async () => {
    const before = (await allEvents(events)).length;
    const again = await importer.run(
      textRecords(
        [
          good('Alpha Pay', 'alpha-pay.example'),
          good('Gamma AI', 'gamma.example', {
            signals: {
              headcount: [
                { date: '2026-01-01', value: 3 },
                { date: '2026-06-01', value: 9 },
              ],
            },
          }),
        ].join('\n'),
        'jsonl',
      ),
      { source: 'test' },
    );
    assert.deepEqual({ ...again, ms: 0 }, { read: 2, imported: 0, updated: 0, unchanged: 2, rejected: 0, ms: 0 });
    assert.equal((await allEvents(events)).length, before);

    clock.advance(3_600_000);
    const changed = await importer.run(
      textRecords(good('Alpha Pay', 'https://www.alpha-pay.example/', { headcount: 14 }), 'jsonl'),
      { source: 'second' },
    );
    assert.deepEqual({ ...changed, ms: 0 }, { read: 1, imported: 0, updated: 1, unchanged: 0, rejected: 0, ms: 0 });
    const stored = await allEvents(events);
    assert.equal(stored.length, before + 1);
    const last = stored[stored.length - 1]!;
    assert.equal(last.type, 'CompanyUpdated');
    assert.deepEqual((last.data as { changes: unknown }).changes, { headcount: 14 });
    assert.equal(last.revision, 1);
    assert.equal((await profileOf(events, companyIdFor('alpha-pay.example')))?.headcount, 14);
  });

  it('the same company twice in one file: both apply, in file order', async () => {
    const summary = await importer.run(
      textRecords(
        [
          good('Epsilon', 'epsilon.example', { headcount: 1 }),
          good('Epsilon', 'epsilon.example', { headcount: 2 }),
          good('Epsilon', 'epsilon.example', { headcount: 2 }),
        ].join('\n'),
        'jsonl',
      ),
      { source: 'test' },
    );
    assert.deepEqual({ ...summary, ms: 0 }, { read: 3, imported: 1, updated: 1, unchanged: 1, rejected: 0, ms: 0 });
    assert.equal((await profileOf(events, companyIdFor('epsilon.example')))?.headcount, 2);
  });

  it('CSV: quoted fields, embedded newlines, bad rows by the line they start on; same companies as JSON Lines', async () => {
    const header =
      'name,domain,description,sectors,country,city,stage,headcount,last_round_type,last_round_amount_usd,last_round_date,web_traffic_series';
    const csv = [
      header, // 1
      '"Zeta, Inc.",zeta.example,"Builds ""fast""\npayments",fintech;ai,US,"New York",seed,12,seed,2000000,2026-05-01,2025-10-01:1000;2026-10-01:3000', // 2-3
      'Eta,eta.example,,climate,DE,Berlin,series-b,abc,,,,', // 4: headcount not a number
      'Theta,theta.example,"multi', // 5-6: the quoted description spans a line break
      'line",saas,GB,London,,,,,,', // (continuation of line 5)
      'Iota,iota.example,,,FR,Paris,,5,,,,2026-10-01=7', // 7: bad series syntax
      'Kappa,kappa.example,,saas,XX1,Paris,,5,,,,', // 8: bad country
      'Lambda,lambda.example,too,few', // 9: wrong number of fields
    ].join('\r\n');
    const rejected: ImportRejection[] = [];
    const summary = await importer.run(textRecords(csv, 'csv'), { source: 'csv', onRejected: (r) => rejected.push(r) });
    assert.deepEqual({ ...summary, ms: 0 }, { read: 6, imported: 2, updated: 0, unchanged: 0, rejected: 4, ms: 0 });
    assert.deepEqual(
      rejected.map((r) => r.line),
      [4, 7, 8, 9],
    );
    assert.match(rejected[0]!.reason, /^headcount: /);
    assert.match(rejected[1]!.reason, /web_traffic_series: expected DATE:VALUE/);
    assert.match(rejected[2]!.reason, /headquarters\.country/);
    assert.match(rejected[3]!.reason, /expected 12 fields, got 4/);
    const zeta = await profileOf(events, companyIdFor('zeta.example'));
    assert.deepEqual(
      {
        name: zeta?.name,
        description: zeta?.description,
        sectors: zeta?.sectors,
        hq: zeta?.headquarters,
        round: zeta?.last_round,
        traffic: zeta?.signals.web_traffic,
      },
      {
        name: 'Zeta, Inc.',
        description: 'Builds "fast"\npayments',
        sectors: ['fintech', 'ai'],
        hq: { country: 'US', city: 'New York' },
        round: { type: 'seed', amount_usd: 2_000_000, date: '2026-05-01' },
        traffic: [
          { date: '2025-10-01', value: 1000 },
          { date: '2026-10-01', value: 3000 },
        ],
      },
    );
    assert.equal((await profileOf(events, companyIdFor('theta.example')))?.description, 'multi\r\nline');

    // A header naming an unknown column stops the import before any record.
    await assert.rejects(
      importer.run(textRecords('name,domain,colour\nA,a.example,red', 'csv'), { source: 'csv' }),
      (e: unknown) => e instanceof ImportSourceError && /unknown column "colour"/.test(e.message),
    );
  });

  it('files: the same companies as JSON Lines and as CSV are one set of companies (ids from domains)', async () => {
    const records = [...demoCompanies({ count: 300, asOf: '2026-11-01' })];
    const jsonl = join(dir, 'demo.jsonl');
    const csv = join(dir, 'demo.csv');
    await writeFile(jsonl, records.map((r) => JSON.stringify(r)).join('\n'));
    await writeFile(
      csv,
      [csvHeaderLine(), ...records.map((r) => recordToCsvLine(r as Parameters<typeof recordToCsvLine>[0]))].join('\n'),
    );
    const first = await importer.run(fileRecords(jsonl, 'jsonl'), { source: 'jsonl' });
    assert.deepEqual({ ...first, ms: 0 }, { read: 300, imported: 300, updated: 0, unchanged: 0, rejected: 0, ms: 0 });
    const second = await importer.run(fileRecords(csv, 'csv'), { source: 'csv' });
    assert.deepEqual({ ...second, ms: 0 }, { read: 300, imported: 0, updated: 0, unchanged: 300, rejected: 0, ms: 0 });
  });

  it('two importers at once (two processes sharing the store): every company once, no lost update', async () => {
    const other = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
    try {
      // Domains of their own: no overlap with the companies of the tests before.
      const records = [...demoCompanies({ count: 400, seed: 99, asOf: '2026-11-01' })].map((r) => ({
        ...r,
        domain: `concurrent-${r.domain}`,
      }));
      const a = new CompanyImporter(events, clock);
      const b = new CompanyImporter(other, clock);
      const [ra, rb] = await Promise.all([
        a.run(valueRecords(records, 50), { source: 'a' }),
        b.run(valueRecords([...records].reverse(), 50), { source: 'b' }),
      ]);
      // Each company was imported by exactly one of them; the other found it unchanged.
      assert.equal(ra.imported + rb.imported, 400);
      assert.equal(ra.imported + ra.unchanged + ra.updated, 400);
      assert.equal(rb.imported + rb.unchanged + rb.updated, 400);
      assert.equal(ra.updated + rb.updated, 0);
      const ids = new Set(records.map((r) => companyIdFor(r.domain)));
      let count = 0;
      for await (const e of events.readAll({ filter: { streamPrefixes: [COMPANY_STREAM_PREFIX] } }))
        if (ids.has((e.data as { company_id: string }).company_id)) count++;
      assert.equal(count, 400);
    } finally {
      await other.close();
    }
  });
});
