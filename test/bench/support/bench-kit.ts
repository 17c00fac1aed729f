// What the benches (test/bench/*.bench.ts) and their child servers (support/*-server.ts) share:
// figures (median, fmt), the load generator (autocannon, in this process or in a child), the
// server's CPU time from /proc, and the child-server protocol: a server prints one JSON line when
// it is ready and exits on SIGTERM (or SIGINT); a smoke run calls its serve(args) in the bench's
// process instead.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';

const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- settings

/**
 * A smoke run (`BENCH_SMOKE=1`, set by `scripts/run-bench.mjs --smoke`; npm test runs every bench
 * so): each bench does its whole work at a size of seconds, to prove it still runs; its figures
 * mean nothing.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';

/** A bench's numeric setting: its environment variable if set, else `smoke` in a smoke run, else `full`. */
export function setting(name: string, full: number, smoke: number): number {
  const value = process.env[name];
  return value === undefined || value === '' ? (SMOKE ? smoke : full) : Number(value);
}

/** Seconds of load before measuring (JIT, caches, connections); none in a smoke run. */
export const WARM_UP_SECONDS = SMOKE ? 0 : 2;

/**
 * The limits a bench's API server is started with (its env): every request of a bench comes from
 * 127.0.0.1 without a key at first (funding keys through the anonymous pay form, OAuth grants),
 * so the per-address doors are opened wide and the per-key agent limit is never reached. A bench
 * measures the work, not the refusals.
 */
export const BENCH_LIMITS: Readonly<Record<string, string>> = {
  SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
  SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '1000000',
  SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
  SVC_OAUTH_LIMIT_PER_MINUTE: '1000000',
  SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: '1000000',
  SVC_MCP_ANONYMOUS_LIMIT_PER_MINUTE: '1000000',
  SVC_SIGN_IN_LIMIT_PER_MINUTE: '1000000',
  SVC_AGENT_RATE_LIMIT_PER_MINUTE: '1000000000',
};

// ---------------------------------------------------------------- figures

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** A number as the benches print it: grouped thousands, `digits` decimals (whole by default). */
export const fmt = (n: number, digits = 0) =>
  digits === 0
    ? Math.round(n).toLocaleString('en-US')
    : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

// ---------------------------------------------------------------- load

/** The parts of autocannon's result the benches read. */
export interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/**
 * Requests per connection of a smoke run's load: each connection is answered a dozen times, and a
 * reader of the workspace bench's stream (10 pages in a smoke run) comes back to its start.
 */
export const SMOKE_REQUESTS_PER_CONNECTION = 12;

/**
 * autocannon in this process (so `setupRequest` and `onResponse` callbacks can be used). In a
 * smoke run a load at full speed (no `amount`, no rate) sends a fixed number of requests instead
 * of running for its duration: that proves the route answers 2xx at a small part of the CPU a
 * half second of saturating load costs (ADR 0097). A load at a rate keeps its duration.
 */
export function autocannon(opts: Record<string, unknown>): Promise<AutocannonResult> {
  const atFullSpeed = opts.amount === undefined && opts.overallRate === undefined && opts.connectionRate === undefined;
  const run = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;
  if (!SMOKE || !atFullSpeed) return run(opts);
  return run({ ...opts, amount: Number(opts.connections ?? 10) * SMOKE_REQUESTS_PER_CONNECTION });
}

/**
 * One autocannon run in a child process (a GET with these headers, at `rate` requests/s in all if
 * given); its JSON summary. In a smoke run, where the figures mean nothing, the same load runs in
 * this process: a child costs a Node start and autocannon's load, longer than the load itself
 * (ADR 0097).
 */
export function autocannonChild(
  url: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  rate?: number,
): Promise<AutocannonResult> {
  if (SMOKE)
    return autocannon({ url, headers, connections, duration: seconds, ...(rate ? { overallRate: rate } : {}) });
  const args = [
    require.resolve('autocannon/autocannon.js'),
    '-j',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    ...(rate ? ['-R', String(rate)] : []),
  ];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').at(-1)!) as AutocannonResult);
      } catch (error) {
        reject(new Error(`autocannon output not JSON: ${out.slice(0, 500)} ${String(error)}`));
      }
    });
  });
}

/** Throws when a load had a non-2xx answer or a connection error. */
export function checkLoad(name: string, r: AutocannonResult): void {
  if (r.non2xx > 0 || r.errors > 0)
    throw new Error(`${name}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
}

// ---------------------------------------------------------------- server CPU

/** CPU time (user + system) a process has used, in µs, from /proc (Linux); null elsewhere. */
export function cpuMicros(pid: number | undefined): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of the line, in clock ticks (USER_HZ = 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

/**
 * Runs `load` and measures the server process's CPU time meanwhile: µs per request answered
 * (`answered` of the load's value), NaN where /proc is not there.
 */
export async function withServerCpu<T>(
  pid: number | undefined,
  load: () => Promise<T>,
  answered: (value: T) => number,
): Promise<{ value: T; cpuUs: number }> {
  const before = cpuMicros(pid);
  const value = await load();
  const after = cpuMicros(pid);
  const cpuUs = before === null || after === null ? NaN : (after - before) / Math.max(1, answered(value));
  return { value, cpuUs };
}

// ---------------------------------------------------------------- child servers: the bench side

export interface BenchChild {
  process: ChildProcess;
  /** The first line the child prints (a server's ready line, an importer's result). */
  firstLine: Promise<string>;
}

/** Starts `node --enable-source-maps SCRIPT ...args`, stdout piped, stderr through. */
export function spawnChild(script: string, args: string[]): BenchChild {
  const proc = spawn(process.execPath, ['--enable-source-maps', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: proc.stdout! });
  const firstLine = new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    proc.once('exit', (code) => reject(new Error(`bench server ${args[0]} exited with ${code}`)));
  });
  return { process: proc, firstLine };
}

/**
 * A server a bench loads: a child process, or in a smoke run the same server in the bench's
 * process (`close`), where a child would cost a Node start and a second load of the api's modules
 * (ADR 0097).
 */
export interface BenchServer {
  process?: ChildProcess;
  close?: () => Promise<void>;
}

/**
 * Starts a child server and waits for its ready line: that JSON, with the process. In a smoke run
 * (unless `child`) the script's `serve(args)` runs in this process instead, one server at a time.
 */
export async function startServer<T extends object>(
  script: string,
  args: string[],
  options: { child?: boolean } = {},
): Promise<T & BenchServer> {
  if (SMOKE && !options.child) return serveHere<T>(script, args);
  const { process: proc, firstLine } = spawnChild(script, args);
  return { ...(JSON.parse(await firstLine) as T), process: proc };
}

/** The ready call of the server `serveHere` is starting; unset in a child server. */
let readyHere: ((line: Record<string, unknown>, stop: () => Promise<unknown>) => void) | undefined;

async function serveHere<T extends object>(script: string, args: string[]): Promise<T & BenchServer> {
  const { serve } = (await import(pathToFileURL(script).href)) as { serve: (args: string[]) => Promise<void> };
  let started: { line: Record<string, unknown>; stop: () => Promise<unknown> } | undefined;
  readyHere = (line, stop) => (started = { line, stop });
  try {
    await serve(args);
  } finally {
    readyHere = undefined;
  }
  if (!started) throw new Error(`bench server ${script} ${args[0] ?? ''} did not say it is ready`);
  const { line, stop: stopHere } = started;
  // Through JSON, as a child's ready line is read.
  return { ...(JSON.parse(JSON.stringify(line)) as T), close: () => stopHere().then(() => undefined) };
}

/** The process whose CPU time is the server's (the bench's own for a server in this process). */
export const serverPid = (server: BenchServer): number | undefined => server.process?.pid ?? process.pid;

/** Stops a server: SIGTERM to its child and wait for the exit, or close it here. */
export async function stopServer(server: BenchServer): Promise<void> {
  if (server.process) await stop(server.process);
  else await server.close?.();
}

/** SIGTERM, and wait for the exit. */
export async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGTERM');
  });
}

// ---------------------------------------------------------------- child servers: the server side

/** Listens on 127.0.0.1, a free port; the base URL. */
export async function listenLocal(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

/**
 * Whether the module at `url` is the script Node was started with (a child server's), not one a
 * bench imports to serve it in its own process.
 */
export function isMain(url: string): boolean {
  return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(url));
}

/**
 * Prints the ready line; on SIGTERM or SIGINT runs `stop`, then exits. A server served in the
 * bench's process hands both to `startServer` instead.
 */
export function ready(line: Record<string, unknown>, stop: () => Promise<unknown>): void {
  if (readyHere) return readyHere(line, stop);
  process.stdout.write(`${JSON.stringify(line)}\n`);
  const exit = () => void stop().finally(() => process.exit(0));
  process.on('SIGTERM', exit);
  process.on('SIGINT', exit);
}

/** A server's start that failed: the stack on stderr, exit 1. */
export function failed(error: unknown): never {
  process.stderr.write(`bench server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
}

/**
 * `count` new agent keys, each account funded with `packId` paid in the sandbox checkout
 * (pack_10000: 12,500 USD), 20 at a time.
 */
export async function paidKeys(url: string, count: number, packId = 'pack_10000'): Promise<string[]> {
  const keys: string[] = [];
  const fund = async () => {
    const res = await fetch(`${url}/api/v1/agents/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pack_id: packId }),
    });
    const issued = (await res.json()) as { key: { api_key: string }; starter_checkout: { url: string } };
    const paid = await fetch(`${issued.starter_checkout.url}/pay`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
    if (paid.status !== 200) throw new Error(`funding failed: ${paid.status} ${await paid.text()}`);
    keys.push(issued.key.api_key);
  };
  for (let i = 0; i < count; i += 20) await Promise.all(Array.from({ length: Math.min(20, count - i) }, fund));
  return keys;
}
