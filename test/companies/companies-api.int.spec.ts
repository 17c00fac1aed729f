import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type CompanyProfileData,
  CompanyImporter,
  checkCompanyRecord,
  companyIdFor,
  companyProfileSchema,
  companyScoreSchema,
  demoCompanies,
  discoveryPageSchema,
  MODEL_VERSION,
  modelHealthSchema,
  scoreCompany,
  valueRecords,
} from '#agent-ventures';
import { creditsStream } from '#agent-billing';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { z } from 'zod';
import { pay, payInSandbox, withKey } from '../agent-data/support/agent-client.js';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

const IMPORT_AT = '2026-11-20T09:30:00.000Z';
const envelope = <T extends z.ZodType>(data: T) =>
  z.strictObject({ version: z.literal('v1'), as_of: z.iso.datetime(), data });

interface Expected {
  id: string;
  score: number;
  profile: CompanyProfileData;
}

describe('venture data endpoints (real HTTP, metered)', () => {
  let api: TestApi;
  let key: string;
  let accountId: string;
  let events: EventStore;
  let expected: Expected[];
  const clock = new FakeClock(IMPORT_AT);

  const charges = async (): Promise<string[]> => {
    const meters: string[] = [];
    for await (const e of events.readStream(creditsStream(accountId)))
      if (e.type === 'MeterCharged') meters.push((e.data as { meter: string }).meter);
    return meters;
  };
  /** GET with the key; returns status, body, and the meters charged by this one call. */
  const get = async (path: string, headers = true) => {
    const before = await charges();
    const res = await fetch(`${api.url}${path}`, headers ? withKey(key) : {});
    const body = (await res.json()) as any;
    const charged = (await charges()).slice(before.length);
    return { status: res.status, body, charged, header: res.headers.get('x-credits-charged') };
  };
  const importCompanies = async (records: unknown[]) => {
    const summary = await api.app.get(CompanyImporter).run(valueRecords(records), { source: 'test' });
    await api.app.get(ProjectionRunner).waitFor(await events.headPosition(), { timeoutMs: 30_000 });
    return summary;
  };

  before(async () => {
    api = await startTestApi({ clock, env: { SVC_DEMO_DATA: 'false' } });
    events = api.app.get<EventStore>(EVENT_STORE);
    const records = [...demoCompanies({ count: 250, asOf: '2026-11-20' })];
    await importCompanies(records);
    expected = records
      .map((r) => {
        const check = checkCompanyRecord(r);
        assert.ok(check.ok);
        return {
          id: companyIdFor(check.profile.domain),
          score: scoreCompany(check.profile, IMPORT_AT).score,
          profile: check.profile,
        };
      })
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    const issued = await pay(api.url, { pack_id: 'pack_499' });
    assert.equal((await payInSandbox(issued.starter_checkout.url)).status, 303);
    key = issued.key.api_key;
    accountId = issued.account_id;
  });
  after(async () => {
    await api?.close();
  });

  it('GET /discovery/top: default 10, ranked by score (ties by id), envelope, charged read.discovery_top once', async () => {
    const r = await get('/api/v1/discovery/top');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const body = envelope(discoveryPageSchema).parse(r.body);
    assert.equal(body.as_of, IMPORT_AT);
    assert.equal(body.data.model_version, MODEL_VERSION);
    assert.equal(body.data.data.length, 10);
    assert.deepEqual(
      body.data.data.map((i) => [i.rank, i.company.id, i.score]),
      expected.slice(0, 10).map((e, i) => [i + 1, e.id, e.score]),
    );
    assert.equal(body.data.has_more, true);
    assert.deepEqual(r.charged, ['read.discovery_top']);
    assert.equal(r.header, '3.50');
    const first = body.data.data[0]!.company;
    const top = expected[0]!.profile;
    assert.deepEqual(
      [first.name, first.domain, first.stage, first.headquarters],
      [top.name, top.domain, top.stage, top.headquarters],
    );
  });

  it('pagination walks the whole ranking once, in order, with continuous ranks; the same page twice is identical', async () => {
    const seen: Array<[number, string]> = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const r = await get(`/api/v1/discovery/top?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      assert.equal(r.status, 200);
      assert.deepEqual(r.charged, ['read.discovery_top']);
      calls++;
      for (const item of r.body.data.data) seen.push([item.rank, item.company.id]);
      cursor = r.body.data.next_cursor;
      assert.equal(r.body.data.has_more, cursor !== null);
    } while (cursor);
    assert.equal(calls, 3);
    assert.deepEqual(
      seen,
      expected.map((e, i) => [i + 1, e.id]),
    );

    const a = await get('/api/v1/discovery/top?limit=7&stage=seed');
    const b = await get('/api/v1/discovery/top?limit=7&stage=seed');
    assert.deepEqual(a.body.data, b.body.data);
  });

  it('a cursor stays valid while companies arrive: no repeats, no gaps', async () => {
    const page1 = await get('/api/v1/discovery/top?limit=5&country=US');
    const us = expected.filter((e) => e.profile.headquarters.country === 'US');
    assert.deepEqual(
      page1.body.data.data.map((i: any) => i.company.id),
      us.slice(0, 5).map((e) => e.id),
    );
    // A new leader arrives between the pages.
    const star = {
      name: 'Star Robotics',
      domain: 'star-robotics.example',
      sectors: ['ai'],
      headquarters: { country: 'US', city: 'Austin' },
      stage: 'series-a',
      headcount: 240,
      total_funding_usd: 3_000_000,
      investors: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'],
      last_round: { type: 'series-a', amount_usd: 2_000_000, date: '2026-11-01' },
      signals: {
        headcount: [
          { date: '2025-11-01', value: 60 },
          { date: '2026-11-01', value: 240 },
        ],
        web_traffic: [
          { date: '2025-11-01', value: 200_000 },
          { date: '2026-11-01', value: 6_000_000 },
        ],
      },
    };
    assert.equal((await importCompanies([star])).imported, 1);
    const page2 = await get(
      `/api/v1/discovery/top?limit=5&country=US&cursor=${encodeURIComponent(page1.body.data.next_cursor)}`,
    );
    assert.deepEqual(
      page2.body.data.data.map((i: any) => [i.rank, i.company.id]),
      us.slice(5, 10).map((e, i) => [i + 6, e.id]),
    );
    // From the start, it leads: the same query as page 1 is not answered from a stale cache.
    const fresh = await get('/api/v1/discovery/top?limit=5&country=US');
    assert.equal(fresh.body.data.data[0].company.domain, 'star-robotics.example');
    assert.deepEqual(
      fresh.body.data.data.slice(1).map((i: any) => i.company.id),
      us.slice(0, 4).map((e) => e.id),
    );
    const starProfile = checkCompanyRecord(star);
    assert.ok(starProfile.ok);
    expected.push({
      id: companyIdFor('star-robotics.example'),
      score: fresh.body.data.data[0].score,
      profile: starProfile.profile,
    });
    expected.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  });

  it('filters: sector, stage, country, together, each equal to the filtered ranking', async () => {
    const cases: Array<[string, (e: Expected) => boolean]> = [
      ['sector=ai', (e) => e.profile.sectors.includes('ai')],
      ['sector=FinTech', (e) => e.profile.sectors.includes('fintech')],
      ['stage=series-a', (e) => e.profile.stage === 'series-a'],
      ['country=gb', (e) => e.profile.headquarters.country === 'GB'],
      [
        'sector=ai&stage=seed&country=US',
        (e) =>
          e.profile.sectors.includes('ai') && e.profile.stage === 'seed' && e.profile.headquarters.country === 'US',
      ],
    ];
    for (const [query, keep] of cases) {
      const r = await get(`/api/v1/discovery/top?limit=100&${query}`);
      assert.equal(r.status, 200, query);
      const want = expected.filter(keep).slice(0, 100);
      assert.deepEqual(
        r.body.data.data.map((i: any) => [i.rank, i.company.id, i.score]),
        want.map((e, i) => [i + 1, e.id, e.score]),
        query,
      );
      assert.deepEqual(r.charged, ['read.discovery_top'], query);
    }
  });

  it('400s (limit over 100, bad values, unknown parameters, a cursor of other filters) are not charged', async () => {
    const page = await get('/api/v1/discovery/top?limit=2&stage=seed');
    for (const query of [
      'limit=101',
      'limit=0',
      'limit=ten',
      'stage=series-z',
      'sector=no-such-sector',
      'country=USA',
      'country=UK',
      'colour=red',
      'cursor=garbage',
      `cursor=${encodeURIComponent(page.body.data.next_cursor)}&stage=series-a`,
    ]) {
      const r = await get(`/api/v1/discovery/top?${query}`);
      assert.equal(r.status, 400, query);
      assert.equal(r.body.code, 'VALIDATION_FAILED', query);
      assert.deepEqual(r.charged, [], query);
      assert.equal(r.header, null);
    }
    const limit = await get('/api/v1/discovery/top?limit=101');
    assert.deepEqual(limit.body.details, [{ path: 'query.limit', message: 'expected at most 100' }]);
    // Validation comes before metering: an account without credits gets the 400, not a 402.
    const broke = await pay(api.url);
    assert.equal((await fetch(`${api.url}/api/v1/discovery/top?limit=101`, withKey(broke.key.api_key))).status, 400);
    assert.equal((await fetch(`${api.url}/api/v1/discovery/top`, withKey(broke.key.api_key))).status, 402);
  });

  it('GET /companies/{id}: the profile by id or domain, charged read.company_profile once; unknown → 404, not charged', async () => {
    const target = expected[3]!;
    const r = await get(`/api/v1/companies/${target.id}`);
    assert.equal(r.status, 200);
    const body = envelope(companyProfileSchema).parse(r.body);
    const { id, growth, created_at, updated_at, ...profile } = body.data;
    assert.equal(id, target.id);
    assert.deepEqual(profile, target.profile);
    assert.equal(created_at, IMPORT_AT);
    assert.equal(updated_at, IMPORT_AT);
    assert.ok(growth.headcount === null || typeof growth.headcount.annual_rate === 'number');
    assert.deepEqual(r.charged, ['read.company_profile']);
    assert.equal(r.header, '2.50');

    const byDomain = await get(`/api/v1/companies/${encodeURIComponent(`https://www.${target.profile.domain}/`)}`);
    assert.equal(byDomain.status, 200);
    assert.equal(byDomain.body.data.id, target.id);

    for (const unknown of [companyIdFor('nobody.example'), 'nobody.example', 'not-an-id']) {
      const miss = await get(`/api/v1/companies/${unknown}`);
      assert.equal(miss.status, 404, unknown);
      assert.equal(miss.body.code, 'COMPANY_NOT_FOUND');
      assert.deepEqual(miss.charged, []);
      assert.equal(miss.header, null);
    }
  });

  it('GET /companies/{id}/score: components sum to the score, computed_at is the import time; charged read.company_score once; 404 free', async () => {
    const target = expected[0]!;
    const r = await get(`/api/v1/companies/${target.id}/score`);
    assert.equal(r.status, 200);
    const body = envelope(companyScoreSchema).parse(r.body);
    assert.equal(body.data.score, target.score);
    assert.equal(body.data.model_version, MODEL_VERSION);
    assert.equal(body.data.computed_at, IMPORT_AT);
    assert.deepEqual(
      body.data.components.map((c) => c.name),
      ['team', 'traction', 'momentum', 'market', 'capital_efficiency'],
    );
    assert.equal(
      body.data.components.reduce((s, c) => s + Math.round(c.contribution * 100), 0),
      Math.round(body.data.score * 100),
    );
    assert.ok(body.data.explanation.length > 20);
    assert.deepEqual(r.charged, ['read.company_score']);
    assert.equal(r.header, '2.00');
    const miss = await get(`/api/v1/companies/${companyIdFor('nobody.example')}/score`);
    assert.equal(miss.status, 404);
    assert.equal(miss.body.code, 'COMPANY_NOT_FOUND');
    assert.deepEqual(miss.charged, []);
  });

  it('paid routes need a key (401); GET /model/health is free and needs none', async () => {
    for (const path of [
      '/api/v1/discovery/top',
      `/api/v1/companies/${expected[0]!.id}`,
      `/api/v1/companies/${expected[0]!.id}/score`,
    ]) {
      const res = await fetch(`${api.url}${path}`);
      assert.equal(res.status, 401, path);
    }
    const before = await charges();
    const res = await fetch(`${api.url}/api/v1/model/health`);
    assert.equal(res.status, 200);
    const health = envelope(modelHealthSchema).parse(await res.json());
    assert.deepEqual(
      { ...health.data, projections: health.data.projections.map((p) => p.name) },
      {
        model_version: MODEL_VERSION,
        status: 'ok',
        companies_scored: expected.length,
        last_import_at: IMPORT_AT,
        projection_lag: 0,
        projections: ['company-profiles', 'company-scores'],
      },
    );
    assert.deepEqual(await charges(), before);
  });

  it('the OpenAPI document describes the four operations', async () => {
    const res = await fetch(`${api.url}/docs/api/openapi.v1.yaml`);
    assert.equal(res.status, 200);
    const text = await res.text();
    for (const path of [
      '/api/v1/discovery/top:',
      '/api/v1/companies/{id}:',
      '/api/v1/companies/{id}/score:',
      '/api/v1/model/health:',
    ])
      assert.ok(text.includes(path), path);
    for (const op of ['getTopDiscovery', 'getCompany', 'getCompanyScore', 'getModelHealth'])
      assert.ok(text.includes(op), op);
  });
});
