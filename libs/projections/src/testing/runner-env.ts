// The embedded stores on one fresh SQLite file, and the counter projection's view of them, for
// the runner's integration specs (projection-runner*.int.spec.ts).
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteDocumentStore, type Doc } from '#documents';
import { SqliteEventStore, type EventStore } from '#eventstore';
import { ProjectionRunner, type ProjectionRunnerOptions } from '../projection-runner.js';
import type { ProjectionDefinition } from '../projection.port.js';

/** Polls a condition (no fixed sleeps); fails with the last value after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T> | T,
  ok: (v: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (ok(value)) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

export interface RunnerEnv {
  path: string;
  events(): EventStore;
  docs(): SqliteDocumentStore;
  runner(options: Partial<ProjectionRunnerOptions> & { projections: ProjectionDefinition[] }): ProjectionRunner;
  /** Appends `perStream` Counted events to each of `streams` streams, concurrently; returns the last position. */
  seed(streams: number, perStream: number, prefix?: string): Promise<number>;
  /** Counts per stream computed from the event log itself (Counted events, Removed deletes). */
  truth(): Promise<Map<string, number>>;
  /** Stream documents of the active generation, as id → count. */
  counts(runner: ProjectionRunner, name?: string): Promise<Map<string, number>>;
  total(runner: ProjectionRunner, name?: string): Promise<number>;
  all(runner: ProjectionRunner, name: string, logical: string): Promise<Doc[]>;
  /** Stops the runners, closes the stores and removes the file. */
  close(): Promise<void>;
}

export const totalEvents = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** A fresh data directory; everything opened through it is closed by `close`. */
export async function openRunnerEnv(): Promise<RunnerEnv> {
  const dir = await mkdtemp(join(tmpdir(), 'projections-'));
  const path = join(dir, 'svc.sqlite');
  const closers: Array<() => Promise<void>> = [];
  let seedStore: EventStore | null = null;
  const env: RunnerEnv = {
    async close() {
      for (const close of closers) await close();
      await rm(dir, { recursive: true, force: true });
    },
    path,
    events() {
      const s = new SqliteEventStore({ path, pollIntervalMs: 10 });
      closers.push(() => s.close());
      return s;
    },
    docs() {
      const s = new SqliteDocumentStore({ path });
      closers.push(() => s.close());
      return s;
    },
    runner(options) {
      const runner = new ProjectionRunner({
        eventStore: options.eventStore ?? env.events(),
        documentStore: options.documentStore ?? env.docs(),
        retry: { initialMs: 5, maxMs: 50 },
        idleCheckMs: 50,
        generationCacheMs: 0,
        ...options,
      });
      closers.unshift(() => runner.stop());
      return runner;
    },
    async seed(streams, perStream, prefix = 'counter') {
      seedStore ??= env.events();
      const store = seedStore;
      let last = 0;
      await Promise.all(
        Array.from({ length: streams }, async (_, s) => {
          for (let done = 0; done < perStream;) {
            const n = Math.min(25, perStream - done);
            const r = await store.append(
              `${prefix}-${s}`,
              Array.from({ length: n }, (_, i) => ({ type: 'Counted', data: { i: done + i } })),
            );
            last = Math.max(last, r.position);
            done += n;
          }
        }),
      );
      return last;
    },
    async truth() {
      seedStore ??= env.events();
      const counts = new Map<string, number>();
      for await (const e of seedStore.readAll()) {
        if (e.type === 'Counted') counts.set(e.stream, (counts.get(e.stream) ?? 0) + 1);
        if (e.type === 'Removed') counts.delete(e.stream);
      }
      return counts;
    },
    async all(runner, name, logical) {
      const col = runner.store.collection(name, logical);
      const out: Doc[] = [];
      let after: string | undefined;
      do {
        const page = await col.find({}, { limit: 1000, ...(after ? { after } : {}) });
        out.push(...page.items);
        after = page.nextCursor ?? undefined;
      } while (after);
      return out;
    },
    async counts(runner, name = 'stream_counter') {
      return new Map((await env.all(runner, name, `${name}_streams`)).map((d) => [d.id, d.count as number]));
    },
    async total(runner, name = 'stream_counter') {
      return ((await runner.store.collection(name, `${name}_totals`).get('all'))?.count as number | undefined) ?? 0;
    },
  };
  return env;
}
