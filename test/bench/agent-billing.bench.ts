// Paid-request benchmark, printed, not asserted: throughput of a metered route (agent
// key lookup, hold, handler, a DURABLE MeterCharged append per call, X-Credits headers) on one
// account and spread over 1,000 accounts, against bare Fastify serving the same JSON in the
// same run, and the same JSON from an unmetered route of the same app (the HTTP stack alone).
// Servers and the load generator (autocannon) run in separate processes (in a smoke run, all here).
// Reports requests/s, the ratio to bare Fastify and p99 latency: medians of BENCH_RUNS runs.
// Env: BENCH_RUNS (default 3), BENCH_SECONDS (default 10), BENCH_CONNECTIONS (default 100),
//      BENCH_ACCOUNTS (default 1000). Aim: paid >= 40% of bare Fastify.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '#eventstore';
import {
  autocannon,
  type AutocannonResult,
  checkLoad,
  fmt,
  median,
  setting,
  SMOKE,
  startServer,
  stopServer,
  WARM_UP_SECONDS,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const SECONDS = setting('BENCH_SECONDS', 10, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 100, 10);
const ACCOUNTS = setting('BENCH_ACCOUNTS', 1000, 40);
const SERVER = fileURLToPath(new URL('./support/agent-billing-server.js', import.meta.url));
const PATH = '/api/v1/test-paid/discovery';
/** The same payload from the same app without key or charge: what the HTTP stack alone costs. */
const FREE_PATH = '/api/v1/test-paid/free';

type Ready = { url: string; keys: string[] };

async function load(url: string, path: string, keys: string[], seconds = SECONDS): Promise<AutocannonResult> {
  let next = 0;
  const result = await autocannon({
    url: `${url}${path}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path,
        // Each request carries the next key in turn (one key: always the same).
        setupRequest: (request: { headers?: Record<string, string> }) => {
          if (keys.length === 0) return request;
          const key = keys[next++ % keys.length]!;
          return { ...request, headers: { ...request.headers, 'x-api-key': key } };
        },
      },
    ],
  });
  checkLoad(`${url}${path}`, result);
  return result;
}

interface Scenario {
  name: string;
  url: string;
  path: string;
  keys: string[];
  rps: number[];
  p99: number[];
}

async function measure(scenario: Scenario, run: number): Promise<void> {
  const r = await load(scenario.url, scenario.path, scenario.keys);
  scenario.rps.push(r.requests.average);
  scenario.p99.push(r.latency.p99);
  console.log(
    `  run ${run + 1} ${scenario.name}: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, ${fmt(r['2xx'])} ok`,
  );
}

/** Durable commit latency of this disk right now: paid calls wait for it, bare ones do not. */
async function commitLatencyMs(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fsync-'));
  const store = new SqliteEventStore({ path: join(dir, 'probe.sqlite') });
  try {
    const started = performance.now();
    for (let i = 0; i < 50; i++) await store.append('probe-1', [{ type: 'Probe', data: { i } }]);
    return (performance.now() - started) / 50;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`agent billing: ${RUNS} runs x ${SECONDS} s, ${CONNECTIONS} connections, ${fmt(ACCOUNTS)} accounts`);
console.log(`durable commit latency now: ${(await commitLatencyMs()).toFixed(2)} ms`);
// All servers up at once; each run measures every scenario back to back, so a busy machine
// colours all of them alike and the ratios stay meaningful.
const bareServer = await startServer<Ready>(SERVER, ['bare']);
// A smoke run proves both paid scenarios on one api (its first key is the one account): an api
// start costs seconds, and its figures mean nothing there.
const manyServer = await startServer<Ready>(SERVER, ['app', String(ACCOUNTS)]);
const oneServer = SMOKE
  ? { ...manyServer, keys: manyServer.keys.slice(0, 1) }
  : await startServer<Ready>(SERVER, ['app', '1']);
const scenarios: Scenario[] = [
  { name: 'bare fastify', url: bareServer.url, path: PATH, keys: [], rps: [], p99: [] },
  { name: 'api, unmetered route', url: oneServer.url, path: FREE_PATH, keys: [], rps: [], p99: [] },
  { name: 'paid, 1 account', url: oneServer.url, path: PATH, keys: oneServer.keys, rps: [], p99: [] },
  { name: `paid, ${fmt(ACCOUNTS)} accounts`, url: manyServer.url, path: PATH, keys: manyServer.keys, rps: [], p99: [] },
];
try {
  if (WARM_UP_SECONDS) for (const sc of scenarios) await load(sc.url, sc.path, sc.keys, WARM_UP_SECONDS); // warm-up: JIT, caches, hot account state
  for (let run = 0; run < RUNS; run++) for (const sc of scenarios) await measure(sc, run);
  // Every 2xx was charged durably: the one account's ledger holds one MeterCharged per paid call.
  const status = await fetch(`${oneServer.url}/api/v1/agents/status`, { headers: { 'x-api-key': oneServer.keys[0]! } });
  console.log(
    `  the 1-account ledger holds ${fmt(((await status.json()) as { data: { paid_calls: number } }).data.paid_calls)} durable charges`,
  );
} finally {
  await Promise.all([bareServer, manyServer, ...(oneServer.url === manyServer.url ? [] : [oneServer])].map(stopServer));
}
console.log(`durable commit latency after: ${(await commitLatencyMs()).toFixed(2)} ms`);
const bareRps = median(scenarios[0]!.rps);
console.log(`\nmedians of ${RUNS} runs:`);
for (const sc of scenarios) {
  const rps = median(sc.rps);
  console.log(
    `${sc.name.padEnd(24)} ${fmt(rps).padStart(8)} req/s  ${((rps / bareRps) * 100).toFixed(1).padStart(5)}% of bare  p99 ${median(sc.p99)} ms`,
  );
}
