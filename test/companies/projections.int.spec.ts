import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  COMPANY_PROFILES_COLLECTION,
  COMPANY_PROFILES_PROJECTION,
  COMPANY_SCORES_COLLECTION,
  COMPANY_SCORES_PROJECTION,
  type CompanyEvent,
  CompanyImporter,
  companyIdFor,
  companyProfilesProjection,
  companyScoresProjection,
  companyStream,
  checkCompanyRecord,
  demoCompanies,
  DISCOVERY_RANK_COLLECTION,
  DISCOVERY_SECTORS_COLLECTION,
  profileHash,
  SCORE_STATS_COLLECTION,
  valueRecords,
} from '#agent-ventures';
import { FakeClock } from '#kernel';
import type { Doc } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { type EmbeddedProjections, MemoryProjection, openEmbeddedProjections } from '#projections/testing';

const profile = (record: Record<string, unknown>) => {
  const check = checkCompanyRecord({ name: 'Acme', domain: 'acme.example', ...record });
  assert.ok(check.ok);
  return check.profile;
};

const id = companyIdFor('acme.example');
const p1 = profile({
  sectors: ['fintech', 'ai'],
  stage: 'seed',
  headcount: 10,
  headquarters: { country: 'US', city: 'Austin' },
});
const p2 = profile({
  sectors: ['ai', 'saas'],
  stage: 'series-a',
  headcount: 30,
  headquarters: { country: 'US', city: 'Austin' },
});
const imported: CompanyEvent = {
  type: 'CompanyImported',
  data: { company_id: id, profile: p1, content_hash: profileHash(p1), source: 's', at: '2026-11-01T10:00:00.000Z' },
};
const updated: CompanyEvent = {
  type: 'CompanyUpdated',
  data: {
    company_id: id,
    changes: { sectors: ['ai', 'saas'], stage: 'series-a', headcount: 30 },
    content_hash: profileHash(p2),
    source: 's',
    at: '2026-11-02T10:00:00.000Z',
  },
};

describe('company projections', () => {
  for (const projection of [companyProfilesProjection, companyScoresProjection]) {
    it(`${projection.name}: each event applied twice changes nothing`, async () => {
      const h = new MemoryProjection(projection);
      for (const [event, revision] of [
        [imported, 0],
        [updated, 1],
      ] as const) {
        const recorded = h.record(companyStream(id), event, revision);
        await h.apply(recorded);
        const once = h.snapshot();
        await h.apply(recorded);
        assert.deepEqual(h.snapshot(), once, `${event.type} applied twice`);
      }
    });
  }

  it('company-scores: the update re-scores, moves the sector rows and counts the company once', async () => {
    const h = new MemoryProjection(companyScoresProjection);
    await h.apply(h.record(companyStream(id), imported, 0));
    await h.apply(h.record(companyStream(id), updated, 1));
    const snap = h.snapshot();
    const score = snap[COMPANY_SCORES_COLLECTION]![id]!;
    assert.equal(score.computed_at, '2026-11-02T10:00:00.000Z');
    assert.deepEqual(Object.keys(snap[DISCOVERY_SECTORS_COLLECTION]!).sort(), [`${id}:ai`, `${id}:saas`]);
    assert.equal(snap[DISCOVERY_RANK_COLLECTION]![id]!.stage, 'series-a');
    assert.equal(snap[DISCOVERY_RANK_COLLECTION]![id]!.score, score.score);
    assert.deepEqual(snap[SCORE_STATS_COLLECTION]!.all, {
      id: 'all',
      companies: 1,
      last_import_at: '2026-11-02T10:00:00.000Z',
      last_position: 2,
    });
  });

  describe('rebuild (runner over the embedded stores)', () => {
    let embedded: EmbeddedProjections;
    let events: SqliteEventStore;
    let runner: ProjectionRunner;
    before(async () => {
      embedded = await openEmbeddedProjections('companies-projections', [
        companyProfilesProjection,
        companyScoresProjection,
      ]);
      ({ events, runner } = embedded);
    });
    after(async () => {
      await embedded?.close();
    });

    const all = (projection: string, collection: string): Promise<Doc[]> => embedded.all(projection, collection);
    const snapshot = async () => ({
      profiles: await all(COMPANY_PROFILES_PROJECTION, COMPANY_PROFILES_COLLECTION),
      scores: await all(COMPANY_SCORES_PROJECTION, COMPANY_SCORES_COLLECTION),
      rank: await all(COMPANY_SCORES_PROJECTION, DISCOVERY_RANK_COLLECTION),
      sectors: await all(COMPANY_SCORES_PROJECTION, DISCOVERY_SECTORS_COLLECTION),
      stats: await all(COMPANY_SCORES_PROJECTION, SCORE_STATS_COLLECTION),
    });

    it('a rebuild reproduces identical profiles and scores (computed_at is the event time, not the clock)', async () => {
      await runner.start();
      const clock = new FakeClock('2026-11-01T08:00:00.000Z');
      const importer = new CompanyImporter(events, clock);
      const records = [...demoCompanies({ count: 600, asOf: '2026-11-01' })];
      await importer.run(valueRecords(records), { source: 'first' });
      clock.advance(86_400_000);
      // A second import changes a tenth of them.
      await importer.run(valueRecords(records.slice(0, 60).map((r) => ({ ...r, headcount: (r.headcount ?? 0) + 7 }))), {
        source: 'second',
      });
      await runner.waitFor(await events.headPosition(), { timeoutMs: 30_000 });
      const incremental = await snapshot();
      assert.equal(incremental.scores.length, 600);
      assert.equal(incremental.rank.length, 600);
      assert.equal(incremental.stats[0]!.companies, 600);
      assert.equal(incremental.scores.filter((s) => s.computed_at === '2026-11-02T08:00:00.000Z').length, 60);

      const results = await runner.rebuild();
      assert.deepEqual(
        results.map((r) => r.generation),
        [2, 2],
      );
      assert.deepEqual(await snapshot(), incremental);
    });
  });
});
