// Projection benchmark, printed, not asserted: rebuild of a simple projection (count
// events per stream into documents) over 1,000,000 events, embedded SQLite, durable commits.
// Target >= 50,000 events/s. Median of several rebuilds of the same seeded file (each one into a
// fresh generation, switched and the previous one dropped, exactly as `svc projections rebuild`).
// Env: BENCH_RUNS (default 3), BENCH_PROJECTION_EVENTS (default 1,000,000),
//      BENCH_PROJECTION_STREAMS (default 10,000), BENCH_BATCH (runner batch size, default 500).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore } from '#documents';
import { SqliteEventStore } from '#eventstore';
import { ProjectionRunner, type ProjectionDefinition } from '#projections';
import { fmt, median, setting } from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const EVENTS = setting('BENCH_PROJECTION_EVENTS', 1_000_000, 10_000);
const STREAMS = setting('BENCH_PROJECTION_STREAMS', 10_000, 100);
const BATCH = setting('BENCH_BATCH', 500, 500);

/** Count events per stream: one document per stream, read-modify-write per event. */
const streamCounts: ProjectionDefinition = {
  name: 'bench_stream_counts',
  version: 1,
  eventTypes: ['MeterCharged'],
  collections: [{ name: 'bench_stream_counts', indexes: [{ fields: [['count', -1]] }] }],
  async handle(event, ctx) {
    const doc = (await ctx.get<{ id: string; count: number; cents: number; last: number }>(
      'bench_stream_counts',
      event.stream,
    )) ?? {
      id: event.stream,
      count: 0,
      cents: 0,
      last: -1,
    };
    doc.count += 1;
    doc.cents += (event.data as { amountCents: number }).amountCents;
    doc.last = event.revision;
    ctx.upsert('bench_stream_counts', doc);
  },
};

/**
 * 1M events over STREAMS streams, interleaved (each append: 5 events of one stream, streams in
 * turn), so a batch of 500 events touches 100 documents. 200 concurrent appends per group commit.
 */
async function seed(path: string): Promise<number> {
  const store = new SqliteEventStore({ path });
  const started = performance.now();
  const perAppend = 5;
  const concurrent = 200;
  let written = 0;
  let stream = 0;
  while (written < EVENTS) {
    const appends = [];
    for (let a = 0; a < concurrent && written < EVENTS; a++) {
      const n = Math.min(perAppend, EVENTS - written);
      const base = written;
      appends.push(
        store.append(
          `credits-acct_${String(stream).padStart(6, '0')}`,
          Array.from({ length: n }, (_, i) => ({
            type: 'MeterCharged',
            data: { meter: 'read.company_profile', amountCents: 250, n: base + i },
          })),
        ),
      );
      stream = (stream + 1) % STREAMS;
      written += n;
    }
    await Promise.all(appends);
  }
  await store.close();
  return written / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  console.log(
    `projections bench: node ${process.version}, ${fmt(EVENTS)} events over ${fmt(STREAMS)} streams, batch ${BATCH}, ${RUNS} runs`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'bench-projections-'));
  try {
    const path = join(dir, 'bench.sqlite');
    const seedRate = await seed(path);
    console.log(`    seeded ${fmt(EVENTS)} events at ${fmt(seedRate)} events/s`);
    const rates: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const eventStore = new SqliteEventStore({ path });
      const documentStore = new SqliteDocumentStore({ path });
      const runner = new ProjectionRunner({ eventStore, documentStore, projections: [streamCounts], batchSize: BATCH });
      const started = performance.now();
      const [result] = await runner.rebuild('bench_stream_counts');
      const seconds = (performance.now() - started) / 1000;
      if (result!.events !== EVENTS) throw new Error(`rebuild read ${result!.events} events, expected ${EVENTS}`);
      const docs = documentStore.collection('bench_stream_counts__g' + result!.generation);
      const count = await docs.count();
      const top = (await docs.find({}, { sort: [['count', -1]], limit: 1 })).items[0];
      if (count !== Math.min(STREAMS, Math.ceil(EVENTS / 5)))
        throw new Error(`expected one document per stream, got ${count}`);
      rates.push(EVENTS / seconds);
      console.log(
        `    run ${r + 1}: ${fmt(EVENTS / seconds)} events/s (${seconds.toFixed(2)} s, generation ${result!.generation}, ` +
          `${fmt(count)} documents, top count ${top?.count}, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB)`,
      );
      await eventStore.close();
      await documentStore.close();
    }
    console.log(
      `(c) projection rebuild over ${fmt(EVENTS)} events: median ${fmt(median(rates))} events/s ` +
        `(runs: ${rates.map(fmt).join(', ')}; target >= 50,000)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
