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
import { CompanyImporter, companyIdFor, demoCompanies, type ImportFormat, valueRecords } from '#agent-ventures';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { PaidRoutesModule } from '../../agent-data/support/paid-routes.module.js';
import { startTestApi } from '../../api/support/test-api.js';
import { serveBare } from './bare-server.js';
import { BENCH_LIMITS, failed, paidKeys, ready } from './bench-kit.js';
import { AS_OF, companiesBareRoutes, importTwice } from './companies-parts.js';

async function importOnce(file: string, format: ImportFormat): Promise<void> {
  process.stdout.write(`${JSON.stringify(await importTwice(file, format))}\n`);
}

async function bare(): Promise<void> {
  const server = await serveBare(companiesBareRoutes());
  ready({ url: server.url, keys: [], ids: ['cmp_BARE'] }, server.close);
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

const [mode, a, b] = process.argv.slice(2);
const run =
  mode === 'import'
    ? importOnce(a!, b as ImportFormat)
    : mode === 'bare'
      ? bare()
      : api(Number(a ?? 20_000), Number(b ?? 200));
run.catch(failed);
