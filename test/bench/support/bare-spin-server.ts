// Child process for measuring what a route of any code can reach on this machine: bare Fastify
// answering the empty list page after a busy-wait of BENCH_SPIN_US µs of wall time (default 0).
// Compare two with bench-ab (docs/performance.md, "What this machine lets the aims mean"):
//   node scripts/bench-ab.mjs --server dist/test/bench/support/bare-spin-server.js --env-b "BENCH_SPIN_US=25" .
// Prints {url, keys: []} when ready; exits on SIGTERM/SIGINT.
import Fastify from 'fastify';

/** The body of platform-bench-routes' EMPTY_PAGE (not imported: this process loads Fastify only). */
const EMPTY_PAGE = { data: [], has_more: false, next_cursor: null };

const spinMs = Number(process.env.BENCH_SPIN_US ?? 0) / 1000;
const app = Fastify({ logger: false });
app.get('/v1/repositories', async () => {
  if (spinMs > 0) {
    const until = performance.now() + spinMs;
    while (performance.now() < until);
  }
  return EMPTY_PAGE;
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}`, keys: [] })}\n`);
const stop = () => void app.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
