// MCP endpoint benchmark, printed, not asserted: a paid MCP tool call against its REST
// twin in the same run, both through the whole api (agent key, credit hold, TopCompaniesQuery, a
// DURABLE MeterCharged append per call):
//   MCP   POST /api/v1/mcp, one JSON-RPC message per request (Streamable HTTP, stateless, no
//         initialize, JSON answer): tools/call svc.get_top_discovery {"limit": 10}
//   REST  GET /api/v1/discovery/top?limit=10
// over the demo companies (SVC_DEMO_DATA=true), one agent key funded by operator grants, and
// bare Fastify answering the same two bodies in the same run (its POST parses the same JSON-RPC
// body). Figures: the server's CPU time per request (from /proc: steadier than requests/s on a
// shared machine) as a multiple of bare Fastify's, MCP's as a multiple of REST's (aim: at most
// 1.5×), requests/s and latency. Servers run in child processes (support/mcp-server.ts; here in
// a smoke run), autocannon (the load) here. Medians of BENCH_RUNS (default 3) runs of
// BENCH_SECONDS (default 5) per scenario with BENCH_CONNECTIONS (default 100), the order of the
// scenarios reversed every other run. Checks: before the load, the MCP answer's structuredContent
// equals the REST answer's data and both are charged; during it, non-2xx answers, connection
// errors and MCP tool errors (isError, or a JSON-RPC error) are counted (any fails the bench);
// after it, the key's ledger holds at least one durable charge per paid answer. Default total
// time ~1.5 min on 2 cores.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import {
  autocannon,
  type AutocannonResult,
  type BenchServer,
  fmt,
  median,
  serverPid,
  setting,
  SMOKE,
  startServer,
  stopServer,
  withServerCpu,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const SECONDS = setting('BENCH_SECONDS', 5, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 100, 10);
const SERVER = fileURLToPath(new URL('./support/mcp-server.js', import.meta.url));

const REST_PATH = '/api/v1/discovery/top?limit=10';
const MCP_PATH = '/api/v1/mcp';
const MCP_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'svc.get_top_discovery', arguments: { limit: 10 } },
});
// A client of the current protocol (as the SDK's, after initialize): it reads structuredContent,
// so a page's text is its summary (ADR 0084).
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
};

type Protocol = 'rest' | 'mcp';
type Label = 'bare' | 'api';

interface Server extends BenchServer {
  url: string;
}

interface AppReady {
  url: string;
  key: string;
  companies: number;
  balance_usd: number;
}

interface Load {
  result: AutocannonResult;
  /** 2xx answers that are not a successful tool result (isError, or a JSON-RPC error). */
  toolErrors: number;
}

/** One load of `protocol` on `server` for `seconds`, every answer looked at. */
async function load(server: Server, protocol: Protocol, key: string, seconds: number): Promise<Load> {
  let toolErrors = 0;
  /** What a good answer holds: a tool result, or the REST envelope. */
  const good = protocol === 'mcp' ? '"structuredContent"' : '"data"';
  const headers = protocol === 'mcp' ? { ...MCP_HEADERS, 'x-api-key': key } : { 'x-api-key': key };
  const request =
    protocol === 'mcp'
      ? { method: 'POST', path: MCP_PATH, headers, body: MCP_BODY }
      : { method: 'GET', path: REST_PATH, headers };
  const result = await autocannon({
    url: `${server.url}${request.path}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        ...request,
        // Both protocols pay this look at the body, so the load generator's work stays alike.
        onResponse: (status: number, body: string) => {
          if (status >= 200 && status < 300 && (body.includes('"isError":true') || !body.includes(good))) toolErrors++;
        },
      },
    ],
  });
  return { result, toolErrors };
}

interface Figures {
  rps: number[];
  p50: number[];
  p99: number[];
  cpuUs: number[];
}

/** Fetches each twin once: the same data, both charged. Returns the bodies as sent. */
async function checkTwins(app: AppReady): Promise<{ rest: unknown; mcp: unknown }> {
  const restRes = await fetch(`${app.url}${REST_PATH}`, { headers: { 'x-api-key': app.key } });
  const restText = await restRes.text();
  if (restRes.status !== 200) throw new Error(`REST answered ${restRes.status}: ${restText.slice(0, 300)}`);
  const mcpRes = await fetch(`${app.url}${MCP_PATH}`, {
    method: 'POST',
    headers: { ...MCP_HEADERS, 'x-api-key': app.key },
    body: MCP_BODY,
  });
  const mcpText = await mcpRes.text();
  if (mcpRes.status !== 200) throw new Error(`MCP answered ${mcpRes.status}: ${mcpText.slice(0, 300)}`);
  const rest = JSON.parse(restText) as { data: { data: unknown[] } };
  const mcp = JSON.parse(mcpText) as {
    result?: { isError?: boolean; structuredContent?: unknown; _meta?: { credits_charged_usd?: number } };
  };
  if (!mcp.result || mcp.result.isError) throw new Error(`MCP tool call failed: ${mcpText.slice(0, 500)}`);
  if (!isDeepStrictEqual(mcp.result.structuredContent, rest.data))
    throw new Error('MCP structuredContent differs from the REST data');
  if (rest.data.data.length !== 10) throw new Error(`discovery answered ${rest.data.data.length} companies, not 10`);
  const restCharged = Number(restRes.headers.get('x-credits-charged'));
  const mcpCharged = Number(mcp.result._meta?.credits_charged_usd);
  if (!(restCharged > 0) || !(mcpCharged > 0) || restCharged !== mcpCharged)
    throw new Error(`charges: REST ${restRes.headers.get('x-credits-charged')} USD, MCP ${mcpCharged} USD`);
  console.log(
    `check: MCP structuredContent = REST data (10 companies); both charged ${restCharged} USD; ` +
      `answers ${fmt(restText.length)} bytes (REST) and ${fmt(mcpText.length)} bytes (MCP: the data once, in structuredContent, with a summary text)`,
  );
  return { rest, mcp };
}

async function paidCalls(app: AppReady): Promise<{ paid_calls: number; balance_usd: number }> {
  const res = await fetch(`${app.url}/api/v1/agents/status`, { headers: { 'x-api-key': app.key } });
  return ((await res.json()) as { data: { paid_calls: number; balance_usd: number } }).data;
}

console.log(
  `mcp bench: node ${process.version}, ${RUNS} runs x ${SECONDS} s per scenario, ${CONNECTIONS} connections; ` +
    `MCP tools/call svc.get_top_discovery vs REST GET /discovery/top?limit=10, and bare Fastify`,
);
const started = performance.now();
const app = await startServer<AppReady>(SERVER, ['app']);
console.log(
  `api ready in ${fmt(performance.now() - started)} ms: ${fmt(app.companies)} demo companies, one key with ${fmt(app.balance_usd)} USD`,
);
const dir = mkdtempSync(join(tmpdir(), 'bench-mcp-'));
let bare: Server | undefined;
let failures = 0;
try {
  const bodies = await checkTwins(app);
  /** Paid answers the api gave (the two of the check, then every 2xx of the loads). */
  let paid = 2;
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  bare = await startServer<{ url: string }>(SERVER, ['bare', file]);

  const servers: Record<Label, Server> = { bare, api: app };
  const scenarios: Array<[Label, Protocol]> = [
    ['bare', 'rest'],
    ['api', 'rest'],
    ['bare', 'mcp'],
    ['api', 'mcp'],
  ];
  const count = (label: Label, r: Load) => {
    failures += r.result.non2xx + r.result.errors + r.toolErrors;
    if (label === 'api') paid += r.result['2xx'] - r.toolErrors;
  };
  if (!SMOKE) for (const [label, protocol] of scenarios) count(label, await load(servers[label], protocol, app.key, 3)); // JIT, caches, hot account state

  const results: Record<string, Figures> = {};
  for (let run = 0; run < RUNS; run++) {
    // Reversed every other run, so drift on a shared machine does not favour one side.
    for (const [label, protocol] of run % 2 === 0 ? scenarios : [...scenarios].reverse()) {
      const server = servers[label];
      const { value: measured, cpuUs } = await withServerCpu(
        serverPid(server),
        () => load(server, protocol, app.key, SECONDS),
        (m) => m.result['2xx'],
      );
      const { result: r, toolErrors } = measured;
      count(label, measured);
      const name = `${label} ${protocol}`;
      const entry = (results[name] ??= { rps: [], p50: [], p99: [], cpuUs: [] });
      entry.rps.push(r.requests.average);
      entry.p50.push(r.latency.p50);
      entry.p99.push(r.latency.p99);
      entry.cpuUs.push(cpuUs);
      console.log(
        `  run ${run + 1} ${name.padEnd(8)} ${fmt(r.requests.average).padStart(6)} req/s, p50 ${r.latency.p50} ms, ` +
          `p99 ${r.latency.p99} ms, server CPU ${fmt(cpuUs)} µs/request, ${fmt(r['2xx'])} ok, ` +
          `${r.non2xx} non-2xx, ${r.errors} errors, ${toolErrors} tool errors`,
      );
    }
  }

  // Charged durably: the key's ledger holds a charge for every paid answer, and maybe for those
  // in flight when a load stopped (autocannon does not count them): at most one per connection
  // for each of the api's 2 + 2 × RUNS loads.
  const ledger = await paidCalls(app);
  const charged = ledger.paid_calls >= paid && ledger.paid_calls <= paid + CONNECTIONS * 2 * (1 + RUNS);
  console.log(
    `ledger: ${fmt(ledger.paid_calls)} durable charges for ${fmt(paid)} paid answers counted ` +
      `(${charged ? 'every answer charged' : 'MISMATCH'}); ${fmt(ledger.balance_usd)} USD left; ` +
      `${failures} non-2xx, errors or tool errors in all`,
  );
  if (!charged || failures > 0) process.exitCode = 1;

  const m = (name: string, field: keyof Figures) => median(results[name]![field]);
  console.log(`\nmedians of ${RUNS} runs (server CPU per request; × bare Fastify answering the same body):`);
  for (const [protocol, title] of [
    ['rest', `REST GET ${REST_PATH}`],
    ['mcp', 'MCP  tools/call svc.get_top_discovery'],
  ] as const) {
    const api = `api ${protocol}`;
    const base = `bare ${protocol}`;
    console.log(
      `${title.padEnd(38)} ${fmt(m(api, 'rps')).padStart(6)} req/s = ${((m(api, 'rps') / m(base, 'rps')) * 100).toFixed(1)}% of bare ` +
        `(${fmt(m(base, 'rps'))}); p50 ${m(api, 'p50')} ms, p99 ${m(api, 'p99')} ms; ` +
        `server CPU ${fmt(m(api, 'cpuUs'))} µs/request vs bare ${fmt(m(base, 'cpuUs'))} = ${(m(api, 'cpuUs') / m(base, 'cpuUs')).toFixed(1)}×`,
    );
  }
  const ratios = results['api mcp']!.cpuUs.map((c, i) => c / results['api rest']!.cpuUs[i]!);
  console.log(
    `MCP / REST: server CPU ${(m('api mcp', 'cpuUs') / m('api rest', 'cpuUs')).toFixed(2)}× per request ` +
      `(runs: ${ratios.map((x) => x.toFixed(2)).join(', ')}; aim <= 1.5×), +${fmt(m('api mcp', 'cpuUs') - m('api rest', 'cpuUs'))} µs; ` +
      `throughput ${((m('api mcp', 'rps') / m('api rest', 'rps')) * 100).toFixed(1)}% of REST's`,
  );
} finally {
  await Promise.all([stopServer(app), bare ? stopServer(bare) : Promise.resolve()]);
  rmSync(dir, { recursive: true, force: true });
}
