// Child process of test/bench/mcp.bench.ts, so the load generator (the parent) and the server do
// not share a process:
//   node mcp-server.js app         the real API (embedded stores, durable charges) with the demo
//                                  companies (SVC_DEMO_DATA=true; imported and projected before it
//                                  says it is ready; a smoke run imports the first 200 of them
//                                  instead, a tenth of the start-up) and one agent key whose
//                                  account is funded by BENCH_GRANTS (default 5) operator grants of
//                                  1,000,000 USD
//   node mcp-server.js bare FILE   bare Fastify answering the bodies in FILE (JSON {rest, mcp}: the
//                                  discovery page and the tools/call answer, as the app sent them)
//                                  on GET /api/v1/discovery/top and POST /api/v1/mcp
// Prints one JSON line when ready (app: {url, key, companies, balance_usd}; bare: {url}) and exits
// on SIGTERM/SIGINT.
import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { CommandBus } from '@nestjs/cqrs';
import Fastify from 'fastify';
import { CompanyImporter, DemoDataSeeder, demoCompanies, valueRecords } from '#agent-ventures';
import { GrantCreditsCommand, type GrantCreditsResult } from '#agent-billing';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner } from '#projections';
import { startTestApi } from '../../api/support/test-api.js';
import { BENCH_LIMITS, failed, isMain, listenLocal, ready, setting, SMOKE } from './bench-kit.js';

/** Operator grants; one is at most 1,000,000 USD (MAX_GRANT_CENTS): 285,714 discovery calls at 3.50 USD. */
const GRANTS = setting('BENCH_GRANTS', 5, 1);

async function bare(file: string): Promise<void> {
  const bodies = JSON.parse(readFileSync(file, 'utf8')) as { rest: unknown; mcp: unknown };
  const app = Fastify({ logger: false });
  app.get('/api/v1/discovery/top', async () => bodies.rest);
  app.post('/api/v1/mcp', async () => bodies.mcp);
  ready({ url: await listenLocal(app) }, () => app.close());
}

async function app(): Promise<void> {
  const api = await startTestApi({
    checkOpenApi: false,
    env: {
      ...BENCH_LIMITS,
      LOG_LEVEL: 'silent',
      SVC_BOOTSTRAP: 'false',
      SVC_DEMO_DATA: SMOKE ? 'false' : 'true',
    },
  });
  const runner = api.app.get(ProjectionRunner);
  const events = api.app.get<EventStore>(EVENT_STORE);
  let companies: number;
  if (SMOKE) {
    const records = [...demoCompanies({ count: 200, asOf: new Date().toISOString().slice(0, 10) })];
    companies = (await api.app.get(CompanyImporter).run(valueRecords(records), { source: 'bench' })).imported;
  } else {
    const seeded = await api.app.get(DemoDataSeeder).current;
    if (!seeded || seeded.kind !== 'seeded') throw new Error(`demo data not seeded: ${JSON.stringify(seeded)}`);
    companies = seeded.summary.imported;
  }

  // A plain agent key (its starter checkout left unpaid), funded by operator grants.
  const res = await fetch(`${api.url}/api/v1/agents/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  if (res.status !== 201) throw new Error(`issuing a key: ${res.status} ${await res.text()}`);
  const issued = (await res.json()) as { key: { id: string; api_key: string } };
  await runner.waitFor(await events.headPosition(), { timeoutMs: 600_000 });
  const commands = api.app.get(CommandBus);
  let granted: GrantCreditsResult | undefined;
  for (let i = 0; i < GRANTS; i++)
    granted = await commands.execute(
      new GrantCreditsCommand({ keyId: issued.key.id, creditsCents: 100_000_000, reference: `BENCH-MCP-${i + 1}` }),
    );
  await runner.waitFor(await events.headPosition(), { timeoutMs: 600_000 });

  ready(
    {
      url: api.url,
      key: issued.key.api_key,
      companies,
      balance_usd: granted?.balance_usd ?? 0,
    },
    () => api.close(),
  );
}

/** The server `args` name (see the top of this file); a smoke run serves it in the bench's process. */
export function serve([mode, file]: string[]): Promise<void> {
  return mode === 'bare' ? bare(file!) : app();
}

if (isMain(import.meta.url)) serve(process.argv.slice(2)).catch(failed);
