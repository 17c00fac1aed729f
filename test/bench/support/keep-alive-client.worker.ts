// One keep-alive HTTP client on its own event loop (a worker thread), for the keep-alive tests and
// the soak bench (keep-alive-soak.ts): it sends GET requests with fetch (undici's pooled,
// kept-alive connections) and between two requests either idles (a timer) or is busy (its thread
// blocked, as a client doing synchronous work is: its timers and socket events wait too).
// Blocking uses Atomics.wait, so a busy client takes no CPU from the server beside it.
import { parentPort, workerData } from 'node:worker_threads';

export interface Gap {
  ms: number;
  busy: boolean;
}

export interface KeepAliveClientJob {
  url: string;
  headers: Record<string, string>;
  /** Fixed gaps, in order; after them random ones until `untilMs` (epoch ms) if given. */
  gaps: Gap[];
  untilMs?: number;
  maxGapMs?: number;
  seed?: number;
}

export interface KeepAliveClientReport {
  requests: number;
  /** One line per request not answered 2xx: the status, or the socket error's code and message. */
  failures: string[];
}

/** mulberry32: a seeded generator, so a failing soak can be run again with the same gaps. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function run(job: KeepAliveClientJob): Promise<KeepAliveClientReport> {
  const report: KeepAliveClientReport = { requests: 0, failures: [] };
  const random = seeded(job.seed ?? 1);
  const blocker = new Int32Array(new SharedArrayBuffer(4));
  const once = async () => {
    report.requests++;
    try {
      const res = await fetch(job.url, { headers: job.headers });
      await res.arrayBuffer();
      if (res.status < 200 || res.status > 299) report.failures.push(`${res.status}`);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      report.failures.push(`${(error as Error).message}: ${cause?.code ?? ''} ${cause?.message ?? ''}`.trim());
    }
  };
  // A busy gap starts once the connection is back in the pool (a turn of the loop after the
  // response) and the next request follows the block at once, before any socket event is read.
  const pause = (gap: Gap) =>
    new Promise<void>((resolve) =>
      gap.busy
        ? setTimeout(() => {
            Atomics.wait(blocker, 0, 0, gap.ms);
            resolve();
          }, 20)
        : setTimeout(resolve, gap.ms),
    );
  await once();
  for (const gap of job.gaps) {
    await pause(gap);
    await once();
  }
  while (job.untilMs !== undefined && Date.now() < job.untilMs) {
    await pause({ ms: Math.floor(random() * (job.maxGapMs ?? 0)), busy: random() < 0.5 });
    await once();
  }
  return report;
}

if (parentPort) {
  const port = parentPort;
  void run(workerData as KeepAliveClientJob).then((report) => port.postMessage(report));
}
