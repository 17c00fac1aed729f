import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import {
  COMPANY_STREAM_PREFIX,
  CompanyImporter,
  DEMO_COUNT,
  DEMO_DATA_STREAM,
  DemoDataSeeder,
  type SeedOutcome,
  textRecords,
} from '#agent-ventures';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore, SqliteEventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

const DEMO_ON = { SVC_DEMO_DATA: 'true' };

async function seeding(api: TestApi): Promise<SeedOutcome | void> {
  const current = api.app.get(DemoDataSeeder).current;
  assert.ok(current, 'the api started seeding once it listened');
  return current;
}

async function countEvents(events: EventStore): Promise<{ companies: number; demo: string[] }> {
  let companies = 0;
  for await (const e of events.readAll({ filter: { streamPrefixes: [COMPANY_STREAM_PREFIX] } }))
    if (e.type === 'CompanyImported') companies++;
  const demo: string[] = [];
  for await (const e of events.readStream(DEMO_DATA_STREAM)) demo.push(e.type);
  return { companies, demo };
}

describe('demo data (D20)', () => {
  const dirs: string[] = [];
  const fresh = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'companies-demo-'));
    dirs.push(dir);
    return dir;
  };
  after(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('two apps started together on a fresh store seed it once; a restart seeds nothing; the demo companies are served', async () => {
    const dataDir = await fresh();
    const clock = new FakeClock('2026-11-21T08:00:00.000Z');
    const [a, b] = await Promise.all([
      startTestApi({ dataDir, env: DEMO_ON, clock }),
      startTestApi({ dataDir, env: DEMO_ON, clock }),
    ]);
    try {
      const outcomes = await Promise.all([seeding(a), seeding(b)]);
      const kinds = outcomes.map((o) => (o ? o.kind : 'error')).sort();
      assert.deepEqual(kinds, ['claimed-elsewhere', 'seeded']);
      const seeded = outcomes.find((o) => o?.kind === 'seeded') as Extract<SeedOutcome, { kind: 'seeded' }>;
      assert.equal(seeded.summary.imported, DEMO_COUNT);
      const events = a.app.get<EventStore>(EVENT_STORE);
      assert.deepEqual(await countEvents(events), {
        companies: DEMO_COUNT,
        demo: ['DemoCompaniesClaimed', 'DemoCompaniesSeeded'],
      });
      // One projection runner from here on (two would race for the same checkpoints).
      await b.close();

      // Served at once: the scores projection catches up and the model reports every company.
      await a.app.get(ProjectionRunner).waitFor(await events.headPosition(), { timeoutMs: 60_000 });
      const health = (await (await fetch(`${a.url}/api/v1/model/health`)).json()) as {
        data: { companies_scored: number; status: string };
      };
      assert.equal(health.data.companies_scored, DEMO_COUNT);
      assert.equal(health.data.status, 'ok');
    } finally {
      await a.close();
      await b.close(); // closing twice is a no-op
    }

    const again = await startTestApi({ dataDir, env: DEMO_ON });
    try {
      assert.deepEqual(await seeding(again), { kind: 'done-before' });
      assert.deepEqual(await countEvents(again.app.get<EventStore>(EVENT_STORE)), {
        companies: DEMO_COUNT,
        demo: ['DemoCompaniesClaimed', 'DemoCompaniesSeeded'],
      });
    } finally {
      await again.close();
    }
  });

  it('stopped while seeding, the next start finishes the job (nothing twice)', async () => {
    const dataDir = await fresh();
    const first = await startTestApi({ dataDir, env: DEMO_ON });
    await first.close(); // at once: the seeding is interrupted (or, on a fast machine, done)
    const second = await startTestApi({ dataDir, env: DEMO_ON });
    try {
      await seeding(second);
      assert.deepEqual(await countEvents(second.app.get<EventStore>(EVENT_STORE)), {
        companies: DEMO_COUNT,
        demo: ['DemoCompaniesClaimed', 'DemoCompaniesSeeded'],
      });
    } finally {
      await second.close();
    }
  });

  it('SVC_DEMO_DATA=false seeds nothing; a store that has companies is never seeded', async () => {
    const off = await startTestApi({ env: { SVC_DEMO_DATA: 'false' } });
    try {
      assert.equal(off.app.get(DemoDataSeeder).current, null);
      assert.equal(await off.app.get<EventStore>(EVENT_STORE).headPosition(), 0);
    } finally {
      await off.close();
    }

    const dataDir = await fresh();
    const store = new SqliteEventStore({ path: join(dataDir, 'svc.sqlite') });
    await new CompanyImporter(store, new FakeClock()).run(
      textRecords('{"name": "Own Co", "domain": "own.example"}', 'jsonl'),
      { source: 'own' },
    );
    await store.close();
    const api = await startTestApi({ dataDir, env: DEMO_ON });
    try {
      assert.deepEqual(await seeding(api), { kind: 'not-fresh' });
      assert.deepEqual(await countEvents(api.app.get<EventStore>(EVENT_STORE)), {
        companies: 1,
        demo: ['DemoCompaniesSkipped'],
      });
    } finally {
      await api.close();
    }
  });
});
