#!/usr/bin/env node
// A/B comparison of two builds (or two settings) of one bench server, for changes smaller than
// the run-to-run noise of a shared machine. Both servers run at once; autocannon loads them
// alternately (A B, B A, ...), and the server's CPU time per request (from /proc) and its
// requests/s are reported as medians.
//
//   node scripts/bench-ab.mjs [options] DIR_A [DIR_B]
//
// DIR_A and DIR_B are checkouts with a built dist/ (`git worktree add /tmp/base <rev>`, then
// `node scripts/build.mjs` there, with node_modules linked to this checkout's). One DIR compares
// one build under two settings (--env-b, --node-b).
//
// Options:
//   --server FILE       the server, relative to each DIR (default
//                       dist/test/bench/support/platform-server.js); it must print one JSON
//                       line {url, keys} when ready and stop on SIGTERM
//   --args "A B"        arguments for the server (e.g. "app 1" for agent-billing-server.js)
//   --path P            the request path (default /v1/repositories); the first key goes in
//                       both `Authorization: Bearer` and `x-api-key`
//   --path-b P          side B's path (default --path): with one DIR, two routes of one build
//   --method M, --body JSON, --headers "K=V|K2=V2"
//                       the request's method, body and extra headers (e.g. an MCP tools/call:
//                       --server dist/test/bench/support/mcp-server.js --args app); --method-b,
//                       --body-b, --headers-b set side B's (default: side A's), to compare a route
//                       with its twin on another path. A server's ready line may name one `key`
//                       instead of `keys`
//   --rounds N          measured runs per server (default 6)
//   --seconds N         seconds per run (default 4)
//   --connections N     autocannon connections (default 10)
//   --env-a, --env-b    extra environment, "K=V K2=V2"
//   --node-a, --node-b  node flags, e.g. "--max-semi-space-size=64"
// Linux only (/proc).
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    server: { type: 'string', default: 'dist/test/bench/support/platform-server.js' },
    args: { type: 'string', default: '' },
    'path-b': { type: 'string' },
    method: { type: 'string' },
    body: { type: 'string' },
    headers: { type: 'string', default: '' },
    'method-b': { type: 'string' },
    'body-b': { type: 'string' },
    'headers-b': { type: 'string' },
    path: { type: 'string', default: '/v1/repositories' },
    rounds: { type: 'string', default: '6' },
    seconds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    'env-a': { type: 'string', default: '' },
    'env-b': { type: 'string', default: '' },
    'node-a': { type: 'string', default: '' },
    'node-b': { type: 'string', default: '' },
  },
});
if (positionals.length < 1 || positionals.length > 2) {
  process.stderr.write('usage: node scripts/bench-ab.mjs [options] DIR_A [DIR_B]  (see the comment at the top)\n');
  process.exit(2);
}
const dirs = positionals.length === 2 ? positionals : [positionals[0], positionals[0]];
const autocannon = createRequire(import.meta.url).resolve('autocannon/autocannon.js');
const words = (s) => s.split(' ').filter(Boolean);
const envOf = (s) =>
  Object.fromEntries(words(s).map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

async function start(dir, side) {
  const child = spawn(process.execPath, [...words(values[`node-${side}`]), values.server, ...words(values.args)], {
    cwd: dir,
    env: { ...process.env, ...envOf(values[`env-${side}`]) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    child.on('exit', (code) => reject(new Error(`${dir}: the server exited (${code}) before it was ready`)));
  });
  return { child, ...JSON.parse(line) };
}

/** utime + stime of a process, in µs (clock ticks of 10 ms). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

function load(server, seconds, path = values.path, b = false) {
  const key = server.keys?.[0] ?? server.key ?? '';
  const side = (name) => (b ? (values[`${name}-b`] ?? values[name]) : values[name]);
  const request = [
    ...(side('method') ? ['-m', side('method')] : []),
    ...(side('body') ? ['-b', side('body')] : []),
    ...(side('headers') ?? '')
      .split('|')
      .filter(Boolean)
      .flatMap((h) => ['-H', h]),
  ];
  const out = execFileSync(
    process.execPath,
    [
      autocannon,
      '-j',
      '-c',
      values.connections,
      '-d',
      String(seconds),
      '-H',
      `authorization=Bearer ${key}`,
      '-H',
      `x-api-key=${key}`,
      ...request,
      server.url + path,
    ],
    { encoding: 'utf8', maxBuffer: 1e8 },
  );
  const result = JSON.parse(out.trim().split('\n').at(-1));
  if (result.non2xx || result.errors)
    throw new Error(`${server.url}${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.total;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const servers = [await start(dirs[0], 'a'), await start(dirs[1], 'b')];
try {
  for (const [i, s] of servers.entries())
    load(s, 2, i === 1 ? (values['path-b'] ?? values.path) : values.path, i === 1); // warm-up
  const cpu = [[], []];
  const rate = [[], []];
  const seconds = Number(values.seconds);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const i of round % 2 ? [1, 0] : [0, 1]) {
      const before = cpuMicros(servers[i].child.pid);
      const n = load(servers[i], seconds, i === 1 ? (values['path-b'] ?? values.path) : values.path, i === 1);
      cpu[i].push((cpuMicros(servers[i].child.pid) - before) / n);
      rate[i].push(n / seconds);
    }
  }
  for (const [i, side] of ['A', 'B'].entries()) {
    console.log(
      `${side} ${dirs[i]}${values[`env-${side.toLowerCase()}`] ? ` (${values[`env-${side.toLowerCase()}`]})` : ''}: ` +
        `${median(cpu[i]).toFixed(1)} µs CPU/request, ${Math.round(median(rate[i]))} requests/s ` +
        `(runs: ${cpu[i].map((x) => x.toFixed(1)).join(' ')} µs)`,
    );
  }
} finally {
  for (const s of servers) s.child.kill('SIGTERM');
}
