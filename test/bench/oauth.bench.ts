// OAuth benchmark, printed, not asserted. In the same run and server: a /v1 read
// (GET /v1/account) with an OAuth access token against the same read with an API key of the
// same scope (aim: the token costs at most 1.2x the key, in server CPU per request), and
// POST /oauth/token with the refresh grant (each request rotates its refresh token: the new one
// goes back to a pool the next request takes from; the same grant is never used by two requests
// at once).
// The server is a child process (support/oauth-server.ts); its CPU time comes from /proc. The
// GET loads run autocannon in another child, the token load in this process. (A smoke run, whose
// figures mean nothing, serves and loads all in this process.)
// Env: BENCH_RUNS (default 5), BENCH_DURATION (seconds per run, default 5), BENCH_CONNECTIONS (default 10).
import { fileURLToPath } from 'node:url';
import {
  autocannon,
  autocannonChild,
  type AutocannonResult,
  checkLoad,
  fmt,
  median,
  serverPid,
  setting,
  SMOKE,
  startServer,
  stopServer,
  WARM_UP_SECONDS,
  withServerCpu,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 5, 1);
const DURATION = setting('BENCH_DURATION', 5, 0.5);
// Smoke: two connections still refresh side by side, and the pool they need is four authorizations
// (each an authorization request, its consent and a code exchange), not twenty.
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 2);

interface Ready {
  url: string;
  key: string;
  accessToken: string;
  clientId: string;
  clientSecret: string;
  refreshTokens: string[];
}

let lastRefusal = '';

async function refreshLoad(server: Ready, pool: string[], seconds: number): Promise<AutocannonResult> {
  const basic = `Basic ${Buffer.from(`${server.clientId}:${server.clientSecret}`).toString('base64')}`;
  return autocannon({
    url: `${server.url}/oauth/token`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        setupRequest: (request: Record<string, unknown>) => {
          const token = pool.shift();
          if (!token) throw new Error(`the refresh token pool ran dry (last refusal: ${lastRefusal})`);
          return {
            ...request,
            headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
            body: `grant_type=refresh_token&refresh_token=${token}`,
          };
        },
        onResponse: (status: number, body: string) => {
          if (status === 200) pool.push((JSON.parse(body) as { refresh_token: string }).refresh_token);
          else lastRefusal = `${status} ${body}`;
        },
      },
    ],
  });
}

async function main(): Promise<void> {
  console.log(`oauth bench: node ${process.version}, ${RUNS} runs of ${DURATION} s, ${CONNECTIONS} connections each`);
  const script = fileURLToPath(new URL('./support/oauth-server.js', import.meta.url));
  // autocannon builds a connection's next request before it hands over the answer to the last,
  // and the request built when a run stops is never sent: a pool of a dozen tokens a connection
  // never runs dry over the runs.
  const server = await startServer<Ready>(script, [String(CONNECTIONS * (SMOKE ? 2 : 12))]);
  const pid = serverPid(server);
  try {
    const accountUrl = `${server.url}/v1/account`;
    const targets = {
      key: { label: 'GET /v1/account, API key     ', headers: { authorization: `Bearer ${server.key}` } },
      token: { label: 'GET /v1/account, access token', headers: { authorization: `Bearer ${server.accessToken}` } },
    } as const;
    type Target = keyof typeof targets;
    for (const t of Object.values(targets)) {
      const probe = await fetch(accountUrl, { headers: t.headers });
      if (probe.status !== 200) throw new Error(`${t.label.trim()} answered ${probe.status}`);
      if (WARM_UP_SECONDS)
        checkLoad(
          `${t.label.trim()} warm-up`,
          await autocannonChild(accountUrl, t.headers, CONNECTIONS, WARM_UP_SECONDS),
        );
    }
    const pool = [...server.refreshTokens];
    if (WARM_UP_SECONDS) checkLoad('token warm-up', await refreshLoad(server, pool, WARM_UP_SECONDS));

    const rates: Record<Target | 'refresh', number[]> = { key: [], token: [], refresh: [] };
    const cpu: Record<Target | 'refresh', number[]> = { key: [], token: [], refresh: [] };
    for (let r = 0; r < RUNS; r++) {
      const order: Target[] = r % 2 ? ['token', 'key'] : ['key', 'token'];
      for (const which of order) {
        const t = targets[which];
        const { value, cpuUs } = await withServerCpu(
          pid,
          () => autocannonChild(accountUrl, t.headers, CONNECTIONS, DURATION),
          (v) => v.requests.total,
        );
        checkLoad(which, value);
        rates[which].push(value.requests.average);
        cpu[which].push(cpuUs);
        console.log(
          `    run ${r + 1} ${t.label}: ${fmt(value.requests.average)} req/s (p50 ${value.latency.p50} ms, p99 ${value.latency.p99} ms, server CPU ${cpuUs.toFixed(1)} µs/request)`,
        );
      }
      const { value, cpuUs } = await withServerCpu(
        pid,
        () => refreshLoad(server, pool, DURATION),
        (v) => v.requests.total,
      );
      checkLoad('refresh', value);
      rates.refresh.push(value.requests.average);
      cpu.refresh.push(cpuUs);
      console.log(
        `    run ${r + 1} POST /oauth/token (refresh)   : ${fmt(value.requests.average)} req/s (p50 ${value.latency.p50} ms, p99 ${value.latency.p99} ms, server CPU ${cpuUs.toFixed(1)} µs/request)`,
      );
    }
    const c = { key: median(cpu.key), token: median(cpu.token), refresh: median(cpu.refresh) };
    console.log(
      `(a) GET /v1/account with an API key:      median ${fmt(median(rates.key))} req/s, ${c.key.toFixed(1)} µs CPU/request`,
    );
    console.log(
      `(b) GET /v1/account with an access token: median ${fmt(median(rates.token))} req/s, ${c.token.toFixed(1)} µs CPU/request`,
    );
    console.log(`(c) CPU per request, token / key: ${(c.token / c.key).toFixed(2)}x (aim <= 1.2x)`);
    console.log(
      `(d) POST /oauth/token, refresh grant (rotation, audit event, storage writes): median ${fmt(median(rates.refresh))} req/s, ${c.refresh.toFixed(1)} µs CPU/request (${(c.refresh / c.key).toFixed(1)}x the key read)`,
    );
  } finally {
    await stopServer(server);
  }
}

await main();
