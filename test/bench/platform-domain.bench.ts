// Platform domain benchmark, printed, not asserted. Through the whole api (auth, rate
// limits, validation, CommandBus, event store, read-your-writes waits for the projections):
// (a) GET /v1/repositories and GET /v1/events of an account with 20 repositories and a few
//     hundred events (a full page each), req/s with autocannon in a child process;
// (b) the run lifecycle: clients each start, claim and complete runs (with 5 findings) in a loop,
//     runs/s (3 commands each, every answer after its read models caught up);
// (c) security scans: a 200-vulnerability report diffed against the open alerts (20 new, 20
//     resolved each time), ms per report;
// (d) contention: 20 runners claiming one run at a time, claims/s (exactly one wins each).
// Env: BENCH_RUNS (default 3), BENCH_DURATION (seconds per autocannon run, default 5), BENCH_CONNECTIONS (default 10),
// BENCH_SETUP_RUNS (runs made before the reads, default 40), BENCH_RUNS_PER_CLIENT (lifecycles
// of each of the 10 clients per run, default 15), BENCH_CONTENDED_RUNS (runs claimed per run,
// default 20).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#kernel';
import { createApiApp } from '../../libs/runtime/src/api/app.factory.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import {
  autocannonChild,
  type AutocannonResult,
  BENCH_LIMITS,
  checkLoad,
  fmt,
  median,
  setting,
  WARM_UP_SECONDS,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const DURATION = setting('BENCH_DURATION', 5, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 10);
// Smoke: a full page of events still (20 repositories and 5 runs make more than 20 events), each
// client more than one lifecycle, several runs claimed by the 20 claimers.
const SETUP_RUNS = setting('BENCH_SETUP_RUNS', 40, 5);
const RUNS_PER_CLIENT = setting('BENCH_RUNS_PER_CLIENT', 15, 2);
const CONTENDED_RUNS = setting('BENCH_CONTENDED_RUNS', 20, 3);

/** One autocannon run in a child process; throws on a non-2xx answer or an error. */
async function cannon(url: string, headers: Record<string, string>, seconds: number): Promise<AutocannonResult> {
  const result = await autocannonChild(url, headers, CONNECTIONS, seconds);
  checkLoad(url, result);
  return result;
}

async function main(): Promise<void> {
  console.log(
    `platform-domain bench: node ${process.version}, ${RUNS} runs, autocannon ${DURATION} s × ${CONNECTIONS} connections`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-platform-domain-'));
  const config = loadConfig({
    ...BENCH_LIMITS,
    SVC_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_BOOTSTRAP: 'false',
    SVC_DEMO_DATA: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  try {
    const { key } = await createAccountWithKey(app, {
      plan: 'enterprise',
      perMinute: 10_000_000,
      perHour: 10_000_000,
      scopes: ['admin'],
    });
    const auth = { authorization: `Bearer ${key}` };
    const call = async (method: string, path: string, body?: unknown): Promise<any> => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { ...auth, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
      return text ? JSON.parse(text) : null;
    };
    const repos: string[] = [];
    for (let i = 0; i < 20; i++) repos.push((await call('POST', '/v1/repositories', { name: `bench/repo-${i}` })).id);
    const agent = (await call('POST', '/v1/agents', { name: 'Bench', template: 'code-review' })).id;
    const findings = Array.from({ length: 5 }, (_, i) => ({
      level: (['error', 'warning', 'info'] as const)[i % 3],
      file: `src/f${i}.ts`,
      line: i + 1,
      message: `m${i}`,
      rule: 'r',
    }));
    const lifecycle = async (repo: string) => {
      const run = await call('POST', `/v1/agents/${agent}/runs`, {
        repository_id: repo,
        pull_request: { number: 1, title: 't', url: 'https://x.test/1' },
      });
      await call('POST', `/v1/runs/${run.id}/claim`);
      await call('POST', `/v1/runs/${run.id}/complete`, { findings });
    };
    for (let i = 0; i < SETUP_RUNS; i++) await lifecycle(repos[i % repos.length]!);

    // (a) reads
    const reads = { repositories: `${base}/v1/repositories`, events: `${base}/v1/events` };
    if (WARM_UP_SECONDS) for (const url of Object.values(reads)) await cannon(url, auth, WARM_UP_SECONDS);
    const readRates: Record<string, number[]> = { repositories: [], events: [] };
    for (let r = 0; r < RUNS; r++) {
      for (const [name, url] of Object.entries(reads)) {
        const result = await cannon(url, auth, DURATION);
        readRates[name]!.push(result.requests.average);
        console.log(
          `    run ${r + 1} GET /v1/${name}: ${fmt(result.requests.average)} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms)`,
        );
      }
    }

    // (b) run lifecycle, 10 clients
    const lifecycleRates: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const perClient = RUNS_PER_CLIENT;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: 10 }, async (_, c) => {
          for (let i = 0; i < perClient; i++) await lifecycle(repos[(c + i) % repos.length]!);
        }),
      );
      const rate = (10 * perClient) / ((performance.now() - started) / 1000);
      lifecycleRates.push(rate);
      console.log(`    run ${r + 1} run lifecycle (start + claim + complete, 10 clients): ${fmt(rate, 1)} runs/s`);
    }

    // (c) scans: 200 listed, 20 new and 20 gone each time
    const scanMs: number[] = [];
    const list = (offset: number) =>
      Array.from({ length: 200 }, (_, i) => ({
        vulnerability: {
          id: `GHSA-${offset + i}`,
          severity: (['low', 'moderate', 'high', 'critical'] as const)[i % 4],
          package: `pkg-${offset + i}`,
          version: '1.0.0',
          fixed_in: '1.0.1',
        },
        affected_files: ['package-lock.json'],
        recommendation: 'Upgrade',
      }));
    await call('POST', `/v1/repositories/${repos[0]}/security-scans`, { vulnerabilities: list(0) });
    for (let r = 0; r < RUNS * 3; r++) {
      const started = performance.now();
      await call('POST', `/v1/repositories/${repos[0]}/security-scans`, { vulnerabilities: list((r + 1) * 20) });
      scanMs.push(performance.now() - started);
    }
    console.log(`    scans: ${scanMs.map((x) => fmt(x, 1)).join(', ')} ms`);

    // (d) contention: 20 claimers per run
    const claimRates: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const runs: string[] = [];
      for (let i = 0; i < CONTENDED_RUNS; i++)
        runs.push((await call('POST', `/v1/agents/${agent}/runs`, { repository_id: repos[1] })).id);
      const started = performance.now();
      for (const run of runs) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`${base}/v1/runs/${run}/claim`, { method: 'POST', headers: auth }).then((x) => x.status),
          ),
        );
        if (answers.filter((s) => s === 200).length !== 1) throw new Error(`claims of one run: ${answers.join(',')}`);
      }
      const rate = runs.length / ((performance.now() - started) / 1000);
      claimRates.push(rate);
      console.log(`    run ${r + 1} contended claims: ${fmt(rate, 1)} runs claimed/s (20 claimers each, one winner)`);
    }

    console.log(
      `(a) GET /v1/repositories (page of 20): median ${fmt(median(readRates.repositories!))} req/s; GET /v1/events (page of 20): median ${fmt(median(readRates.events!))} req/s`,
    );
    console.log(
      `(b) run lifecycle: median ${fmt(median(lifecycleRates), 1)} runs/s (${fmt(median(lifecycleRates) * 3, 0)} commands/s with read-your-writes)`,
    );
    console.log(`(c) security scan of 200 (20 new, 20 resolved): median ${fmt(median(scanMs), 1)} ms`);
    console.log(`(d) contended claims (20 claimers per run): median ${fmt(median(claimRates), 1)} runs/s`);
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
