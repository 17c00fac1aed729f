// Child process of test/bench/agent-billing.bench.ts: serves one side of the comparison so the
// load generator (the parent) and the server do not share a CPU.
//   node agent-billing-server.js bare              bare Fastify, one JSON route
//   node agent-billing-server.js app ACCOUNTS      the real API (embedded stores, durable
//                                                  charges) with a paid test route and ACCOUNTS
//                                                  funded accounts
// Prints one JSON line {url, keys} when ready; exits on SIGTERM/SIGINT.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { startTestApi } from '../../api/support/test-api.js';
import { PaidRoutesModule } from '../../agent-data/support/paid-routes.module.js';
import { BENCH_LIMITS, failed, isMain, listenLocal, paidKeys, ready } from './bench-kit.js';

const PAYLOAD = { data: [{ rank: 1, company: 'Acme Robotics' }], account_id: 'acct_01JBENCHBENCHBENCHBENCHBENC' };

async function bare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/api/v1/test-paid/discovery', async () => PAYLOAD);
  ready({ url: await listenLocal(app), keys: [] }, () => app.close());
}

async function api(accounts: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-billing-'));
  // One cent per call: a pack_10000 (12,500 USD) pays for 1,250,000 durable charges.
  const api = await startTestApi({
    checkOpenApi: false,
    dataDir,
    imports: [PaidRoutesModule],
    // The per-key rate limit (D7) runs on every paid call, with a budget the load never reaches.
    env: {
      ...BENCH_LIMITS,
      SVC_METER_PRICES_USD: 'read.discovery_top=0.01',
      SVC_BOOTSTRAP: 'false',
      LOG_LEVEL: 'silent',
    },
  });
  const keys = await paidKeys(api.url, accounts);
  ready({ url: api.url, keys }, () => api.close().finally(() => rmSync(dataDir, { recursive: true, force: true })));
}

/** The server `args` name (see the top of this file); a smoke run serves it in the bench's process. */
export function serve([mode, count]: string[]): Promise<void> {
  return mode === 'bare' ? bare() : api(Number(count ?? 1));
}

if (isMain(import.meta.url)) serve(process.argv.slice(2)).catch(failed);
