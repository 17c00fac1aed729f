// Child process of test/bench/companies.bench.ts, so the load generator (the parent) and the
// server, or the importer, never share a CPU:
//   node companies-server.js import FILE FORMAT     one import of FILE into a fresh store; prints
//                                                   {summary} (then re-imports it: {again})
//   node companies-server.js bare                   bare Fastify answering the same JSON bodies
//   node companies-server.js app COMPANIES ACCOUNTS the real API (embedded stores, durable
//                                                   charges) with COMPANIES imported and scored,
//                                                   ACCOUNTS funded agent accounts, and the metered
//                                                   no-op route of the billing tests (the floor)
// Servers print one JSON line {url, keys, ids} when ready and exit on SIGTERM/SIGINT.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import {
  checkCompanyRecord,
  companyGrowth,
  CompanyImporter,
  companyIdFor,
  companySummary,
  demoCompanies,
  fileRecords,
  type ImportFormat,
  type ImportSummary,
  MODEL_VERSION,
  scoreCompany,
  valueRecords,
} from '#agent-ventures';
import { SystemClock } from '#kernel';
import { EVENT_STORE, type EventStore, SqliteEventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { PaidRoutesModule } from '../../agent-data/support/paid-routes.module.js';
import { startTestApi } from '../../api/support/test-api.js';
import { BENCH_LIMITS, failed, isMain, listenLocal, paidKeys, ready } from './bench-kit.js';

const AS_OF = '2026-11-01';

/** Imports `file` into a fresh store, then again (every record unchanged): both summaries. */
export async function importTwice(
  file: string,
  format: ImportFormat,
): Promise<{ summary: ImportSummary; again: ImportSummary }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-import-'));
  const events = new SqliteEventStore({ path: join(dir, 'svc.sqlite') });
  try {
    const importer = new CompanyImporter(events, new SystemClock());
    const summary = await importer.run(fileRecords(file, format), { source: 'bench' });
    const again = await importer.run(fileRecords(file, format), { source: 'bench' });
    return { summary, again };
  } finally {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The bodies the api answers, built from the same demo data, for the bare server to send. */
function samplePayloads(): { discovery: unknown; company: unknown } {
  const now = new Date().toISOString();
  const profiles = [...demoCompanies({ count: 10, asOf: AS_OF })].map((r) => {
    const check = checkCompanyRecord(r);
    if (!check.ok) throw new Error(check.reason);
    return check.profile;
  });
  const items = profiles.map((p, i) => ({
    rank: i + 1,
    score: scoreCompany(p, now).score,
    company: companySummary(companyIdFor(p.domain), p),
  }));
  const first = profiles[0]!;
  return {
    discovery: {
      version: 'v1',
      as_of: now,
      data: {
        model_version: MODEL_VERSION,
        filters: { sector: null, stage: null, country: null },
        data: items,
        has_more: true,
        next_cursor: 'eyJmIjoifHwiLCJyIjoxMCwiYyI6ImV5SnpJam9pYzJOdmNtVTZMVEVzYVdRNk1TSXNJblkiOlt9fQ',
      },
    },
    company: {
      version: 'v1',
      as_of: now,
      data: {
        id: companyIdFor(first.domain),
        ...first,
        growth: companyGrowth(first.signals),
        created_at: now,
        updated_at: now,
      },
    },
  };
}

async function bare(): Promise<void> {
  const payloads = samplePayloads();
  const app = Fastify({ logger: false });
  app.get('/api/v1/discovery/top', async () => payloads.discovery);
  app.get('/api/v1/companies/:id', async () => payloads.company);
  app.get('/api/v1/test-paid/discovery', async () => ({
    data: [{ rank: 1, company: 'Acme Robotics' }],
    account_id: 'acct_01JBENCHBENCHBENCHBENCHBENC',
  }));
  ready({ url: await listenLocal(app), keys: [], ids: ['cmp_BARE'] }, () => app.close());
}

async function api(companies: number, accounts: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-companies-'));
  // One cent per call: a pack_10000 (12,500 USD) pays for 1,250,000 durable charges.
  // PaidRoutesModule: a metered route doing no work, the floor a paid read cannot beat.
  const api = await startTestApi({
    checkOpenApi: false,
    dataDir,
    imports: [PaidRoutesModule],
    // The per-key rate limit (D7) runs on every paid call, with a budget the load never reaches.
    env: {
      ...BENCH_LIMITS,
      SVC_METER_PRICES_USD: 'read.discovery_top=0.01,read.company_profile=0.01',
      SVC_BOOTSTRAP: 'false',
      SVC_DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  const records = [...demoCompanies({ count: companies, asOf: AS_OF })];
  await api.app.get(CompanyImporter).run(valueRecords(records), { source: 'bench' });
  const events = api.app.get<EventStore>(EVENT_STORE);
  await api.app.get(ProjectionRunner).waitFor(await events.headPosition(), { timeoutMs: 600_000 });
  const keys = await paidKeys(api.url, accounts);
  const ids = records.slice(0, 1000).map((r) => companyIdFor(r.domain));
  ready({ url: api.url, keys, ids }, () =>
    api.close().finally(() => rmSync(dataDir, { recursive: true, force: true })),
  );
}

/** The server `args` name (see the top of this file); a smoke run serves it in the bench's process. */
export async function serve([mode, a, b]: string[]): Promise<void> {
  if (mode === 'import') process.stdout.write(`${JSON.stringify(await importTwice(a!, b as ImportFormat))}\n`);
  else if (mode === 'bare') await bare();
  else await api(Number(a ?? 20_000), Number(b ?? 200));
}

if (isMain(import.meta.url)) serve(process.argv.slice(2)).catch(failed);
