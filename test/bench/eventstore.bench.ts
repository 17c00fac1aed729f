// Event store benchmarks, printed, not asserted:
//  (a) single-event appends from 64 concurrent writers to distinct streams, durable: events/s
//      (target >= 20,000/s);
//  (b) readAll of 1,000,000 events: events/s (target >= 200,000/s) and peak RSS (target < 300 MB),
//      each run in a fresh child process so maxRSS is the read's alone.
// Medians of several runs. Env: BENCH_RUNS (default 5), BENCH_READ_EVENTS (default 1,000,000),
// BENCH_APPEND_SECONDS (each append run, default 3).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '#eventstore';
import { fmt, median, setting } from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 5, 1);
const READ_EVENTS = setting('BENCH_READ_EVENTS', 1_000_000, 10_000);
const WRITERS = 64;
const APPEND_SECONDS = setting('BENCH_APPEND_SECONDS', 3, 0.3);

/** A typical small domain event. */
function payload(i: number) {
  return {
    accountId: `acct_01J${(i % 5000).toString().padStart(8, '0')}`,
    meter: 'read.company_profile',
    amountCents: 250,
    n: i,
  };
}

async function appendRun(): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-es-append-'));
  const store = new SqliteEventStore({ path: join(dir, 'bench.sqlite') });
  try {
    let count = 0;
    let stop = false;
    const started = performance.now();
    setTimeout(() => (stop = true), APPEND_SECONDS * 1000);
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        // Each writer owns its stream and appends one event at a time with the exact revision,
        // as a command handler on a hot stream does.
        let revision: number | 'no_stream' = 'no_stream';
        while (!stop) {
          const result = await store.append(
            `credits-w${w}`,
            [{ type: 'MeterCharged', data: payload(count) }],
            revision,
          );
          revision = result.nextExpectedRevision;
          count++;
        }
      }),
    );
    return count / ((performance.now() - started) / 1000);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function seed(path: string, total: number): Promise<number> {
  const store = new SqliteEventStore({ path });
  const started = performance.now();
  // 100 concurrent appends of 100 events: each round is one group commit of 10,000 events.
  const perAppend = 100;
  const perRound = 100;
  let written = 0;
  for (let round = 0; written < total; round++) {
    const appends = [];
    for (let a = 0; a < perRound && written < total; a++) {
      const n = Math.min(perAppend, total - written);
      const base = written;
      appends.push(
        store.append(
          `seed-${round}-${a}`,
          Array.from({ length: n }, (_, i) => ({ type: 'MeterCharged', data: payload(base + i) })),
        ),
      );
      written += n;
    }
    await Promise.all(appends);
  }
  await store.close();
  return written / ((performance.now() - started) / 1000);
}

/** Child mode: one readAll over the whole file; prints a JSON line with rate and peak RSS. */
async function readChild(path: string): Promise<void> {
  const store = new SqliteEventStore({ path });
  const rssBeforeKb = process.resourceUsage().maxRSS;
  const started = performance.now();
  let count = 0;
  let sum = 0;
  for await (const e of store.readAll()) {
    count++;
    sum += (e.data as { amountCents: number }).amountCents;
  }
  const seconds = (performance.now() - started) / 1000;
  await store.close();
  process.stdout.write(
    `${JSON.stringify({ count, sum, rate: count / seconds, maxRssMb: process.resourceUsage().maxRSS / 1024, rssBeforeMb: rssBeforeKb / 1024 })}\n`,
  );
}

async function main(): Promise<void> {
  console.log(`eventstore bench: node ${process.version}, ${RUNS} runs each, medians reported`);

  const appendRates: number[] = [];
  for (let r = 0; r < RUNS; r++) appendRates.push(await appendRun());
  console.log(
    `(a) appends, ${WRITERS} writers, single events, distinct streams, durable: median ${fmt(median(appendRates))} events/s ` +
      `(runs: ${appendRates.map(fmt).join(', ')}; target >= 20,000)`,
  );

  const dir = mkdtempSync(join(tmpdir(), 'bench-es-read-'));
  try {
    const path = join(dir, 'bench.sqlite');
    const seedRate = await seed(path, READ_EVENTS);
    console.log(
      `    seeded ${fmt(READ_EVENTS)} events at ${fmt(seedRate)} events/s (100-event appends, group-committed)`,
    );
    const runs: Array<{ count: number; rate: number; maxRssMb: number; rssBeforeMb: number }> = [];
    for (let r = 0; r < RUNS; r++) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--read-all', path], {
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(`read child failed: ${child.stderr}`);
      const result = JSON.parse(child.stdout.trim().split('\n').at(-1)!);
      if (result.count !== READ_EVENTS)
        throw new Error(`readAll yielded ${result.count} events, expected ${READ_EVENTS}`);
      runs.push(result);
    }
    console.log(
      `(b) readAll of ${fmt(READ_EVENTS)} events: median ${fmt(median(runs.map((r) => r.rate)))} events/s ` +
        `(runs: ${runs.map((r) => fmt(r.rate)).join(', ')}; target >= 200,000), ` +
        `peak RSS median ${median(runs.map((r) => r.maxRssMb)).toFixed(0)} MB ` +
        `(runs: ${runs.map((r) => r.maxRssMb.toFixed(0)).join(', ')}; before reading ${median(runs.map((r) => r.rssBeforeMb)).toFixed(0)} MB; target < 300)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--read-all') await readChild(process.argv[3]!);
else await main();
