// Venture data benchmark, printed, not asserted.
// 1. Import rate: BENCH_IMPORT_COMPANIES (default 100,000) generated companies from a JSON Lines
//    file into a fresh embedded store (validation, ids, hashes, durable group-committed appends),
//    then the same file again (every record unchanged: nothing appended), then as CSV. Aim:
//    >= 5,000 companies/s.
// 2. Paid-request throughput of GET /api/v1/discovery/top?limit=10 and GET /api/v1/companies/{id}
//    through the whole api (agent key lookup, credit hold, read model, a DURABLE MeterCharged
//    append per call, X-Credits headers) over BENCH_COMPANIES (default 20,000) scored companies
//    and BENCH_ACCOUNTS (default 200) funded keys, against bare Fastify answering the same JSON
//    in the same run. Aim: discovery >= 40 % of bare Fastify. For reference, the metered no-op
//    route of the billing tests (same charge, no data) is measured too: the floor of a paid read.
// Also the server's CPU time per request (from /proc; steadier than req/s on a shared machine).
// Servers and importer run in child processes (in a smoke run, here); autocannon (the load) runs
// here. Medians of BENCH_RUNS (default 3) runs of BENCH_SECONDS (default 10) with
// BENCH_CONNECTIONS (default 100).
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { csvHeaderLine, demoCompanies, type ImportSummary, recordToCsvLine } from '#agent-ventures';
import {
  autocannon,
  type AutocannonResult,
  type BenchServer,
  checkLoad,
  fmt,
  median,
  serverPid,
  setting,
  SMOKE,
  spawnChild,
  startServer,
  stopServer,
  withServerCpu,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const SECONDS = setting('BENCH_SECONDS', 10, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 100, 10);
const IMPORT_COMPANIES = setting('BENCH_IMPORT_COMPANIES', 100_000, 200);
const COMPANIES = setting('BENCH_COMPANIES', 20_000, 100);
// Smoke: 70 keys, more than the anonymous pay form's default 60 a minute, so a smoke run still
// proves the bench opens that door (BENCH_LIMITS).
const ACCOUNTS = setting('BENCH_ACCOUNTS', 200, 70);
const SERVER = fileURLToPath(new URL('./support/companies-server.js', import.meta.url));

// ---------------------------------------------------------------- import

/** The importer of companies-server.ts, loaded in a smoke run only (it loads the api). */
const importer = () => import('./support/companies-server.js');

async function importBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-companies-files-'));
  try {
    const jsonl = join(dir, 'companies.jsonl');
    const csv = join(dir, 'companies.csv');
    const records = [...demoCompanies({ count: IMPORT_COMPANIES, asOf: '2026-11-01' })];
    await writeFile(jsonl, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
    await writeFile(
      csv,
      `${[csvHeaderLine(), ...records.map((r) => recordToCsvLine(r as Parameters<typeof recordToCsvLine>[0]))].join('\n')}\n`,
    );
    console.log(
      `import: ${fmt(IMPORT_COMPANIES)} generated companies, ${RUNS} runs per format, each into a fresh store`,
    );
    const rate = (s: ImportSummary) => (s.read / s.ms) * 1000;
    for (const [format, file] of [
      ['jsonl', jsonl],
      ['csv', csv],
    ] as const) {
      const fresh: number[] = [];
      const again: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const result: { summary: ImportSummary; again: ImportSummary } = SMOKE
          ? // A smoke run imports here (its api is served here too): a child would load it again.
            await (await importer()).importTwice(file, format)
          : JSON.parse(await spawnChild(SERVER, ['import', file, format]).firstLine);
        if (result.summary.imported !== IMPORT_COMPANIES || result.again.unchanged !== IMPORT_COMPANIES) {
          throw new Error(`unexpected import result ${JSON.stringify(result)}`);
        }
        fresh.push(rate(result.summary));
        again.push(rate(result.again));
        console.log(
          `  ${format} run ${run + 1}: new ${fmt(rate(result.summary))}/s (${fmt(result.summary.ms)} ms), re-import unchanged ${fmt(rate(result.again))}/s`,
        );
      }
      console.log(
        `${format.padEnd(6)} import ${fmt(median(fresh)).padStart(8)} companies/s   re-import (unchanged, nothing appended) ${fmt(median(again)).padStart(8)} records/s`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- HTTP

interface Server extends BenchServer {
  url: string;
  keys: string[];
  ids: string[];
}

type Path = 'discovery' | 'company' | 'noop';

function load(server: Server, path: Path, seconds: number): Promise<AutocannonResult> {
  let nextKey = 0;
  let nextId = 0;
  const first =
    path === 'discovery'
      ? '/api/v1/discovery/top?limit=10'
      : path === 'noop'
        ? '/api/v1/test-paid/discovery'
        : `/api/v1/companies/${server.ids[0]}`;
  return autocannon({
    url: `${server.url}${first}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'GET',
        path: first,
        setupRequest: (request: { path: string; headers?: Record<string, string> }) => {
          const out = { ...request, headers: { ...request.headers } };
          if (server.keys.length) out.headers['x-api-key'] = server.keys[nextKey++ % server.keys.length]!;
          if (path === 'company') out.path = `/api/v1/companies/${server.ids[nextId++ % server.ids.length]}`;
          return out;
        },
      },
    ],
  });
}

type Results = Record<string, { rps: number[]; p99: number[]; cpuUs: number[] }>;

/**
 * Runs the paths of one server interleaved (run 1 of each, then run 2 of each, ...), so a slow
 * phase of the machine or of the store (a WAL checkpoint after the import) does not land on one
 * path only.
 */
async function measure(
  server: Server,
  label: string,
  paths: Array<[name: string, path: Path]>,
  results: Results,
): Promise<void> {
  if (!SMOKE) for (const [, path] of paths) await load(server, path, 3); // warm-up: JIT, caches, hot account state
  for (let run = 0; run < RUNS; run++) {
    for (const [name, path] of paths) {
      const { value: r, cpuUs } = await withServerCpu(
        serverPid(server),
        () => load(server, path, SECONDS),
        (r) => r['2xx'],
      );
      checkLoad(name, r);
      const entry = (results[name] ??= { rps: [], p99: [], cpuUs: [] });
      entry.rps.push(r.requests.average);
      entry.p99.push(r.latency.p99);
      entry.cpuUs.push(cpuUs);
      console.log(
        `  ${label} ${name} run ${run + 1}: ${fmt(r.requests.average)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, server CPU ${fmt(cpuUs)} µs/request, ${fmt(r['2xx'])} ok`,
      );
    }
  }
}

async function httpBench(): Promise<void> {
  console.log(
    `\nhttp: ${RUNS} runs x ${SECONDS} s, ${CONNECTIONS} connections; api with ${fmt(COMPANIES)} scored companies and ${ACCOUNTS} funded keys`,
  );
  const results: Results = {};
  const bare = await startServer<Server>(SERVER, ['bare']);
  try {
    await measure(
      bare,
      'bare fastify,',
      [
        ['bare discovery', 'discovery'],
        ['bare company', 'company'],
        ['bare no-op', 'noop'],
      ],
      results,
    );
  } finally {
    await stopServer(bare);
  }
  const started = performance.now();
  const app = await startServer<Server>(SERVER, ['app', String(COMPANIES), String(ACCOUNTS)]);
  console.log(`  api ready in ${fmt(performance.now() - started)} ms (import, scoring, funding)`);
  try {
    // paid no-op: the metered route of the billing tests (same charge, no data): the floor.
    await measure(
      app,
      'api,',
      [
        ['paid discovery', 'discovery'],
        ['paid company', 'company'],
        ['paid no-op', 'noop'],
      ],
      results,
    );
  } finally {
    await stopServer(app);
  }
  console.log('\nmedians (GET /discovery/top?limit=10, GET /companies/{id}, metered no-op):');
  for (const [paid, base] of [
    ['paid discovery', 'bare discovery'],
    ['paid company', 'bare company'],
    ['paid no-op', 'bare no-op'],
  ] as const) {
    for (const name of [base, paid]) {
      const rps = median(results[name]!.rps);
      const ratio =
        name === paid ? `  ${((rps / median(results[base]!.rps)) * 100).toFixed(1).padStart(5)}% of bare` : '';
      console.log(
        `${name.padEnd(16)} ${fmt(rps).padStart(8)} req/s  server CPU ${fmt(median(results[name]!.cpuUs)).padStart(5)} µs/request  p99 ${median(results[name]!.p99)} ms${ratio}`,
      );
    }
  }
}

const only = process.env.BENCH_ONLY; // "import" or "http"
if (only !== 'http') await importBench();
if (only !== 'import') await httpBench();
