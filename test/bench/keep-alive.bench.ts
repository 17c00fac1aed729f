// Keep-alive soak: keep-alive clients with random gaps (idle, or busy with their event
// loop blocked) beside autocannon load on the real API, default HTTP settings; any request not
// answered 2xx (a reset connection above all) fails the run. The suite runs a short one
// (test/api/keep-alive.int.spec.ts); this is the long one.
// The server is a child process (support/platform-server.ts); each client is a worker thread.
// Env: BENCH_SECONDS (default 120), BENCH_CLIENTS (20), BENCH_MAX_GAP_MS (gaps drawn up to this,
// default 20,000), BENCH_FIRST_GAP_MS (each client's first, busy, gap: default 7,000, past the
// old 5 s server timeout), BENCH_CONNECTIONS (load, default 10), BENCH_RATE (load requests/s,
// default unlimited), BENCH_SEED.
import { fileURLToPath } from 'node:url';
import { keepAliveSoak } from './support/keep-alive-soak.js';
import { checkLoad, fmt, setting, startServer, stopServer } from './support/bench-kit.js';

const SECONDS = setting('BENCH_SECONDS', 120, 2);
const CLIENTS = setting('BENCH_CLIENTS', 20, 2);
const MAX_GAP_MS = setting('BENCH_MAX_GAP_MS', 20_000, 500);
const FIRST_GAP_MS = setting('BENCH_FIRST_GAP_MS', 7_000, 500);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 2);
const RATE = setting('BENCH_RATE', 0, 200);
const SEED = setting('BENCH_SEED', 1, 1);
const SERVER = fileURLToPath(new URL('./support/platform-server.js', import.meta.url));

// A child in a smoke run too: the one bench that still proves the child-server protocol there.
const server = await startServer<{ url: string; keys: string[] }>(SERVER, [], { child: true });
try {
  console.log(
    `keep-alive soak: ${SECONDS} s, ${CLIENTS} clients (gaps up to ${fmt(MAX_GAP_MS)} ms, first ${fmt(FIRST_GAP_MS)} ms busy), ` +
      `load ${CONNECTIONS} connections${RATE ? ` at ${fmt(RATE)} req/s` : ''}, seed ${SEED}`,
  );
  const result = await keepAliveSoak({
    url: `${server.url}/v1/repositories`,
    headers: { authorization: `Bearer ${server.keys[0]}` },
    clients: CLIENTS,
    seconds: SECONDS,
    maxGapMs: MAX_GAP_MS,
    firstGapMs: FIRST_GAP_MS,
    loadConnections: CONNECTIONS,
    ...(RATE ? { loadRate: RATE } : {}),
    seed: SEED,
  });
  console.log(
    `clients: ${fmt(result.requests)} requests, ${result.failures.length} not answered; load: ${fmt(result.load.requests.total)} requests, ` +
      `${result.load.errors} errors, ${result.load.non2xx} non-2xx`,
  );
  checkLoad('load', result.load);
  if (result.failures.length > 0) throw new Error(`clients not answered: ${result.failures.slice(0, 5).join('; ')}`);
} finally {
  await stopServer(server);
}
