// Platform access benchmark, printed, not asserted. The figure: requests/s
// of an authenticated, rate-limited no-op route against a bare Fastify route answering the same
// body, in the same run and on the same machine; aim: ratio >= 50%. The no-op route goes
// through the whole access layer (Nest on Fastify, the request-id hook, passport bearer
// strategy, key cache, D7 counters and headers, scope guard, validation) and returns a constant
// page. `GET /v1/repositories` of an empty account was that no-op once;
// the platform domain made it a real read-model query, so it is measured too, as a fourth figure (access
// layer plus CQRS query plus a read of the repositories read model: from the projection read
// cache, as the projection runs in this process and nothing commits during the run).
// The account is Enterprise with limits high enough never to throttle, so every request does
// the full work and answers 200.
// For the decomposition it also measures a plain Nest route of the same api app (no guard, no
// interceptor): the framework floor.
// autocannon runs in a child process (its own core), the servers in this one, one at a time; so
// this process's CPU time during a run is the server's: reported per request, it is a steadier
// figure than requests/s on a machine shared with other work.
// Env: BENCH_RUNS (default 5), BENCH_DURATION (seconds per run, default 5), BENCH_CONNECTIONS (default 10).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { loadConfig } from '#kernel';
import { createApiApp } from '../../libs/runtime/src/api/app.factory.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import {
  autocannonChild,
  type AutocannonResult,
  BENCH_LIMITS,
  checkLoad,
  fmt,
  listenLocal,
  median,
  setting,
  SMOKE,
  WARM_UP_SECONDS,
} from './support/bench-kit.js';
import { EMPTY_PAGE, PlatformBenchRoutesModule } from './support/platform-bench-routes.js';

const RUNS = setting('BENCH_RUNS', 5, 1);
const DURATION = setting('BENCH_DURATION', 5, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 10);

/** One autocannon run in a child process (its own core); its JSON summary. */
const cannon = (url: string, headers: Record<string, string>, seconds: number): Promise<AutocannonResult> =>
  autocannonChild(url, headers, CONNECTIONS, seconds);

async function main(): Promise<void> {
  console.log(
    `platform bench: node ${process.version}, ${RUNS} runs of ${DURATION} s, ${CONNECTIONS} connections each`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-platform-'));
  const bare = Fastify({ logger: false });
  bare.get('/v1/repositories', async () => EMPTY_PAGE);
  const bareUrl = `${await listenLocal(bare)}/v1/repositories`;

  const config = loadConfig({
    ...BENCH_LIMITS,
    SVC_DATA_DIR: dir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    SVC_BOOTSTRAP: 'false',
    // A smoke run does not import the 5,000 demo companies in the background: seconds of CPU for
    // an agent-side store the platform routes never read.
    ...(SMOKE ? { SVC_DEMO_DATA: 'false' } : {}),
  });
  const app = await createApiApp(config, { imports: [PlatformBenchRoutesModule] });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address();
  const apiBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const apiUrl = `${apiBase}/v1/repositories`;
  const plainUrl = `${apiBase}/bench/plain`;
  const noopUrl = `${apiBase}/bench/authenticated-noop`;
  try {
    const { key } = await createAccountWithKey(app, {
      plan: 'enterprise',
      perMinute: 10_000_000,
      perHour: 10_000_000,
      scopes: ['read'],
    });
    const auth = { authorization: `Bearer ${key}` };
    for (const url of [apiUrl, noopUrl]) {
      const probe = await fetch(url, { headers: auth });
      if (probe.status !== 200 || !probe.headers.get('x-ratelimit-limit'))
        throw new Error(`${url} answered ${probe.status}`);
      const anonymous = await fetch(url);
      if (anonymous.status !== 401) throw new Error(`${url} answered ${anonymous.status} without a key`);
    }

    const targets = {
      bare: { label: 'bare Fastify          ', url: bareUrl, headers: {} },
      plain: { label: 'plain Nest route      ', url: plainUrl, headers: {} },
      noop: { label: 'authenticated no-op   ', url: noopUrl, headers: auth },
      api: { label: 'GET /v1/repositories  ', url: apiUrl, headers: auth },
    } as const;
    type Target = keyof typeof targets;
    // Warm every server up (JIT, caches, connections) before measuring.
    if (WARM_UP_SECONDS)
      for (const t of Object.values(targets))
        checkLoad(`${t.label.trim()} warm-up`, await cannon(t.url, t.headers, WARM_UP_SECONDS));

    const rates: Record<Target, number[]> = { bare: [], plain: [], noop: [], api: [] };
    const cpu: Record<Target, number[]> = { bare: [], plain: [], noop: [], api: [] };
    const orders: Target[][] = [
      ['bare', 'plain', 'noop', 'api'],
      ['api', 'noop', 'plain', 'bare'],
    ];
    for (let r = 0; r < RUNS; r++) {
      // Alternate the order so drift on a shared machine does not favour one side.
      for (const which of orders[r % 2]!) {
        const t = targets[which];
        const before = process.cpuUsage();
        const result = await cannon(t.url, t.headers, DURATION);
        const used = process.cpuUsage(before);
        checkLoad(which, result);
        rates[which].push(result.requests.average);
        cpu[which].push((used.user + used.system) / result.requests.total);
        console.log(
          `    run ${r + 1} ${t.label}: ${fmt(result.requests.average)} req/s (p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
            `${fmt(result.requests.total)} requests, server CPU ${cpu[which].at(-1)!.toFixed(1)} µs/request)`,
        );
      }
    }
    const m = {
      bare: median(rates.bare),
      plain: median(rates.plain),
      noop: median(rates.noop),
      api: median(rates.api),
    };
    const pct = (x: number) => `${((x / m.bare) * 100).toFixed(1)}%`;
    const c = { bare: median(cpu.bare), plain: median(cpu.plain), noop: median(cpu.noop), api: median(cpu.api) };
    console.log(`(a) bare Fastify, same body: median ${fmt(m.bare)} req/s (runs: ${rates.bare.map(fmt).join(', ')})`);
    console.log(
      `(b) authenticated + rate-limited no-op route: median ${fmt(m.noop)} req/s (runs: ${rates.noop.map(fmt).join(', ')})`,
    );
    console.log(`(c) ratio (b)/(a): ${pct(m.noop)} (aim >= 50%)`);
    console.log(
      `(d) GET /v1/repositories (access layer + read-model query): median ${fmt(m.api)} req/s = ${pct(m.api)} of bare`,
    );
    console.log(
      `    plain Nest route of the same app (the framework floor): ${fmt(m.plain)} req/s = ${pct(m.plain)} of bare`,
    );
    console.log(
      `    server CPU per request (medians): bare ${c.bare.toFixed(1)} µs, plain Nest ${c.plain.toFixed(1)} µs, authenticated no-op ${c.noop.toFixed(1)} µs ` +
        `(access layer +${(c.noop - c.plain).toFixed(1)} µs), GET /v1/repositories ${c.api.toFixed(1)} µs (query +${(c.api - c.noop).toFixed(1)} µs)`,
    );
  } finally {
    await app.close();
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
