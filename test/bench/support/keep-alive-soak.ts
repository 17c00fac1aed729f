// Keep-alive clients beside load: clients on their own event loops (worker threads)
// that idle or are busy for random gaps between requests on kept-alive connections, while
// autocannon loads the same server. A server that closes idle connections before its clients do
// shows here as socket errors (ECONNRESET, UND_ERR_SOCKET "other side closed").
// Used by test/api/keep-alive.int.spec.ts (a few seconds) and test/bench/keep-alive.bench.ts (longer).
import { Worker } from 'node:worker_threads';
import { autocannonChild, type AutocannonResult } from './bench-kit.js';
import type { Gap, KeepAliveClientJob, KeepAliveClientReport } from './keep-alive-client.worker.js';

const WORKER = new URL('./keep-alive-client.worker.js', import.meta.url);

/** Runs one keep-alive client in a worker thread; its report. */
export function keepAliveClient(job: KeepAliveClientJob): Promise<KeepAliveClientReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: job });
    worker.once('message', (report: KeepAliveClientReport) => {
      resolve(report);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`keep-alive client exited with ${code} before reporting`)));
  });
}

export interface SoakOptions {
  url: string;
  headers: Record<string, string>;
  clients: number;
  seconds: number;
  /** Gaps between a client's requests are drawn up to this, half of them busy. */
  maxGapMs: number;
  /** Every client starts with one busy gap this long (past the old 5 s server timeout). */
  firstGapMs: number;
  loadConnections: number;
  /** Requests/s of the whole load (autocannon -R); unlimited when absent. */
  loadRate?: number;
  seed?: number;
}

export interface SoakResult {
  requests: number;
  failures: string[];
  load: AutocannonResult;
}

export async function keepAliveSoak(o: SoakOptions): Promise<SoakResult> {
  const untilMs = Date.now() + o.seconds * 1000;
  const load = autocannonChild(o.url, o.headers, o.loadConnections, o.seconds, o.loadRate);
  const first: Gap = { ms: o.firstGapMs, busy: true };
  const reports = await Promise.all(
    Array.from({ length: o.clients }, (_, i) =>
      keepAliveClient({
        url: o.url,
        headers: o.headers,
        gaps: [first],
        untilMs,
        maxGapMs: o.maxGapMs,
        seed: (o.seed ?? 1) * 1000 + i,
      }),
    ),
  );
  return {
    requests: reports.reduce((n, r) => n + r.requests, 0),
    failures: reports.flatMap((r) => r.failures),
    load: await load,
  };
}
