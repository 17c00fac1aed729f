// Child process of test/bench/agent-billing.bench.ts: serves one side of the comparison so the
// load generator (the parent) and the server do not share a CPU.
//   node agent-billing-server.js bare              bare Fastify, one JSON route
//   node agent-billing-server.js app ACCOUNTS      the real API (embedded stores, durable
//                                                  charges) with a paid test route and ACCOUNTS
//                                                  funded accounts
// Prints one JSON line {url, keys} when ready; exits on SIGTERM.
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { startTestApi } from '../../api/support/test-api.js';
import { PaidRoutesModule } from '../../agent-data/support/paid-routes.module.js';

const PAYLOAD = { data: [{ rank: 1, company: 'Acme Robotics' }], account_id: 'acct_01JBENCHBENCHBENCHBENCHBENC' };

async function bare(): Promise<void> {
  const app = Fastify({ logger: false });
  app.get('/api/v1/test-paid/discovery', async () => PAYLOAD);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, keys: [] })}\n`);
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

async function api(accounts: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-billing-'));
  // One cent per call: a pack_10000 (12,500 USD) pays for 1,250,000 durable charges.
  const api = await startTestApi({
    dataDir,
    imports: [PaidRoutesModule],
    // The per-key rate limit (D7) runs on every paid call, with a budget the load never reaches.
    env: {
      SVC_METER_PRICES_USD: 'read.discovery_top=0.01',
      SVC_BOOTSTRAP: 'false',
      LOG_LEVEL: 'silent',
      SVC_AGENT_RATE_LIMIT_PER_MINUTE: '1000000000',
      SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
      SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
    },
  });
  const keys: string[] = [];
  const fund = async () => {
    const res = await fetch(`${api.url}/api/v1/agents/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pack_id: 'pack_10000' }),
    });
    const issued = (await res.json()) as { key: { api_key: string }; starter_checkout: { url: string } };
    const paid = await fetch(`${issued.starter_checkout.url}/pay`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    if (paid.status !== 200) throw new Error(`funding failed: ${paid.status} ${await paid.text()}`);
    keys.push(issued.key.api_key);
  };
  for (let i = 0; i < accounts; i += 20) await Promise.all(Array.from({ length: Math.min(20, accounts - i) }, fund));
  process.stdout.write(`${JSON.stringify({ url: api.url, keys })}\n`);
  process.on(
    'SIGTERM',
    () =>
      void api.close().finally(() => {
        rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      }),
  );
}

const [mode, count] = process.argv.slice(2);
(mode === 'bare' ? bare() : api(Number(count ?? 1))).catch((error: unknown) => {
  process.stderr.write(`bench server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
