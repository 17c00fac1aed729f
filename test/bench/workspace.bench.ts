// Enterprise workspace benchmark, printed, not asserted.
// (a) GET /api/v1/workspace/events: a tenant's event stream read from the start in pages of 100
//     (`?limit=100&after=CURSOR`, following next_cursor until has_more is false, then from the
//     start again), every page a paid call (meter read.workspace.events: key, tenant, hold, read,
//     a DURABLE MeterCharged append), over a tenant with BENCH_EVENTS (default 100,000) events.
//     Events/s through the API with BENCH_CONNECTIONS (default 10) readers at once and with one
//     reader (its per-page latency is the one an agent paging alone sees). Aim: >= 50,000 events/s.
// (b) PATCH /api/v1/workspace/companies/{id}/memo with {body}: paid (write.workspace.note) and
//     durable (answered after the memo event is stored and the read model has it), round robin
//     over BENCH_COMPANIES (default 200) companies, every body new (so every call writes a
//     version), BENCH_MEMO_CONNECTIONS (default 50) connections.
// Every figure is against bare Fastify answering the same bodies (a page of the same stream, the
// same memo answer) in the same run, as in platform.bench.ts and companies.bench.ts: the server's
// CPU time per request (from /proc: steadier than requests/s on a shared machine) as a multiple of
// bare Fastify's, and the throughput share. Servers run in child processes (support/
// workspace-server.ts; here in a smoke run), autocannon (the load) here. Medians of BENCH_RUNS
// (default 3) runs of BENCH_SECONDS (default 5) per scenario and server, the two servers
// alternating.
// Latencies are taken per response here (sub-millisecond; autocannon's are whole ms).
// Checks: the stream read once from the start holds exactly BENCH_EVENTS events, each once; after
// the load the memos' versions add up to at least the PATCHes answered 200 and at most those sent
// (a load's last requests may be in flight when it stops). Default total time ~2.5 min on 2 cores.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  autocannon,
  type AutocannonResult,
  type BenchServer,
  checkLoad,
  fmt,
  median,
  serverPid,
  setting,
  startServer,
  stopServer,
  WARM_UP_SECONDS,
  withServerCpu,
} from './support/bench-kit.js';

const RUNS = setting('BENCH_RUNS', 3, 1);
const SECONDS = setting('BENCH_SECONDS', 5, 0.5);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 10);
const MEMO_CONNECTIONS = setting('BENCH_MEMO_CONNECTIONS', 50, 10);
const EVENTS = setting('BENCH_EVENTS', 100_000, 1_000);
const COMPANIES = setting('BENCH_COMPANIES', 200, 20);
const PAGE = 100;
const SERVER = fileURLToPath(new URL('./support/workspace-server.js', import.meta.url));
const EVENTS_PATH = `/api/v1/workspace/events?limit=${PAGE}`;

interface AppReady {
  url: string;
  reader: string;
  writer: string;
  companyIds: string[];
  events: number;
  seedMs: number;
  catchUpMs: number;
}

interface Server extends BenchServer {
  url: string;
}

/** The cursor and has_more of a page, from the end of its body (no parse of the whole page). */
function pageTail(body: string): { cursor: string; more: boolean } {
  const at = body.lastIndexOf('"next_cursor":"');
  if (at < 0) throw new Error(`not a page of the stream: ${body.slice(0, 300)}`);
  const start = at + '"next_cursor":"'.length;
  const cursor = body.slice(start, body.indexOf('"', start));
  return { cursor, more: body.indexOf('"has_more":true', start) > 0 };
}

/** Events in a page: each has one `"id":"` key (their data has company_id, key, ... but no id). */
function countEvents(body: string): number {
  let n = 0;
  for (let at = body.indexOf('"id":"'); at >= 0; at = body.indexOf('"id":"', at + 6)) n++;
  return n;
}

/** One whole read of the stream from the start, checked: every event once, in order. */
async function readWholeStream(
  app: Server & AppReady,
): Promise<{ events: number; pages: number; ms: number; middle: string }> {
  const started = performance.now();
  const ids = new Set<string>();
  let after: string | undefined;
  let pages = 0;
  let count = 0;
  let last = '';
  let middle = '';
  for (;;) {
    const res = await fetch(`${app.url}${EVENTS_PATH}${after ? `&after=${after}` : ''}`, {
      headers: { 'x-api-key': app.reader },
    });
    if (res.status !== 200) throw new Error(`events page ${pages + 1}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as {
      data: { data: Array<{ id: string; occurred_at: string }>; next_cursor: string; has_more: boolean };
    };
    pages++;
    for (const e of page.data.data) {
      if (ids.has(e.id)) throw new Error(`event ${e.id} twice in the stream`);
      ids.add(e.id);
      count++;
    }
    if (page.data.data.length > 0 && page.data.data[0]!.id === last) throw new Error('a page repeated');
    last = page.data.data.at(-1)?.id ?? last;
    after = page.data.next_cursor;
    if (count <= EVENTS / 2) middle = after;
    if (!page.data.has_more) break;
  }
  return { events: count, pages, ms: performance.now() - started, middle };
}

type Scenario = 'events' | 'events1' | 'memo';

interface Load {
  result: AutocannonResult;
  /** Events the pages held (0 for memo writes). */
  events: number;
  /** Each response's latency in ms (from the request's write to its last byte), finer than autocannon's whole ms. */
  latencies: number[];
  /** Requests written (autocannon's counts leave out the ones in flight when it stops). */
  sent: number;
}

interface Timed {
  sentAt?: number;
}

/**
 * Readers follow next_cursor from the start of the stream: a sequence of requests per connection
 * (autocannon's context lives for one pass over `requests`), cut short when has_more is false so
 * the next request starts from the beginning again with a fresh context.
 */
async function loadEvents(url: string, key: string, connections: number, seconds: number): Promise<Load> {
  const load: Omit<Load, 'result'> = { events: 0, latencies: [], sent: 0 };
  const steps = Math.ceil(EVENTS / PAGE) + 2;
  type Context = Timed & { after?: string; done?: boolean };
  const requests = Array.from({ length: steps }, (_, i) => ({
    method: 'GET',
    path: EVENTS_PATH,
    headers: { 'x-api-key': key },
    setupRequest: (request: { path: string }, context: Context) => {
      if (i > 0 && context.done) return null; // back to request 0: from the start, fresh context
      load.sent++;
      context.sentAt = performance.now();
      return { ...request, path: i === 0 ? EVENTS_PATH : `${EVENTS_PATH}&after=${context.after}` };
    },
    onResponse: (status: number, body: string, context: Context) => {
      if (context.sentAt !== undefined) load.latencies.push(performance.now() - context.sentAt);
      if (status !== 200) return;
      const { cursor, more } = pageTail(body);
      context.after = cursor;
      context.done = !more;
      load.events += countEvents(body);
    },
  }));
  const result = await autocannon({ url: `${url}${EVENTS_PATH}`, connections, duration: seconds, requests });
  return { result, ...load };
}

/** Memo writes round robin over the companies, each body new so that each writes a version. */
let memoRevision = 0;
async function loadMemo(url: string, key: string, ids: string[], seconds: number): Promise<Load> {
  const load: Omit<Load, 'result'> = { events: 0, latencies: [], sent: 0 };
  const result = await autocannon({
    url: `${url}/api/v1/workspace/companies/${ids[0]}/memo`,
    connections: MEMO_CONNECTIONS,
    duration: seconds,
    requests: [
      {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        setupRequest: (request: Record<string, unknown>, context: Timed) => {
          const n = memoRevision++;
          load.sent++;
          context.sentAt = performance.now();
          return {
            ...request,
            path: `/api/v1/workspace/companies/${ids[n % ids.length]}/memo`,
            body: JSON.stringify({
              body: `# Investment memo\n\nRevision ${n}: the team shipped again; revenue grows 12% a month; next step: the partner meeting.`,
            }),
          };
        },
        onResponse: (_status: number, _body: string, context: Timed) => {
          if (context.sentAt !== undefined) load.latencies.push(performance.now() - context.sentAt);
        },
      },
    ],
  });
  return { result, ...load };
}

type Results = Record<string, { rps: number[]; eps: number[]; p50: number[]; p99: number[]; cpuUs: number[] }>;

const percentile = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]! : NaN;

async function measure(
  server: Server,
  label: string,
  scenario: Scenario,
  run: number,
  load: (seconds: number) => Promise<Load>,
  results: Results,
): Promise<Load> {
  const { value: measured, cpuUs } = await withServerCpu(
    serverPid(server),
    () => load(SECONDS),
    (m) => m.result['2xx'],
  );
  const { result: r, events, latencies } = measured;
  const name = `${label} ${scenario}`;
  checkLoad(name, r);
  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);
  const entry = (results[name] ??= { rps: [], eps: [], p50: [], p99: [], cpuUs: [] });
  entry.rps.push(r.requests.average);
  entry.eps.push(events / SECONDS);
  entry.p50.push(p50);
  entry.p99.push(p99);
  entry.cpuUs.push(cpuUs);
  console.log(
    `  run ${run + 1} ${name.padEnd(12)} ${fmt(r.requests.average).padStart(6)} req/s` +
      `${events ? `, ${fmt(events / SECONDS).padStart(7)} events/s` : ''}, p50 ${p50.toFixed(2)} ms, p99 ${p99.toFixed(1)} ms, ` +
      `server CPU ${fmt(cpuUs)} µs/request, ${fmt(r['2xx'])} ok`,
  );
  return measured;
}

console.log(
  `workspace bench: node ${process.version}, ${RUNS} runs x ${SECONDS} s; events: ${CONNECTIONS} readers and 1, ` +
    `memo: ${MEMO_CONNECTIONS} connections over ${COMPANIES} companies`,
);
const started = performance.now();
const app = await startServer<AppReady>(SERVER, ['app', String(EVENTS), String(COMPANIES)]);
console.log(
  `api ready in ${fmt(performance.now() - started)} ms: ${fmt(app.events)} events appended in ${fmt(app.seedMs)} ms ` +
    `(${fmt((app.events / app.seedMs) * 1000)}/s), projections caught up ${fmt(app.catchUpMs)} ms later`,
);
const dir = mkdtempSync(join(tmpdir(), 'bench-workspace-'));
let bare: Server | undefined;
/** Memo PATCHes to the api: answered 200, and written (the last of each load may be in flight at its end). */
let memoOk = 0;
let memoSent = 0;
try {
  const whole = await readWholeStream(app);
  if (whole.events !== EVENTS) throw new Error(`the stream holds ${whole.events} events, expected ${EVENTS}`);
  console.log(
    `one reader, whole stream from the start (fetch, checked): ${fmt(whole.events)} events in ${fmt(whole.pages)} pages, ` +
      `${fmt(whole.ms)} ms = ${fmt((whole.events / whole.ms) * 1000)} events/s`,
  );

  // The bodies bare Fastify answers: a full page from the middle of the stream, a memo answer.
  const pageRes = await fetch(`${app.url}${EVENTS_PATH}&after=${whole.middle}`, {
    headers: { 'x-api-key': app.reader },
  });
  const memoRes = await fetch(`${app.url}/api/v1/workspace/companies/${app.companyIds[0]}/memo`, {
    method: 'PATCH',
    headers: { 'x-api-key': app.writer, 'content-type': 'application/json' },
    body: JSON.stringify({ body: '# Investment memo\n\nRevision: first version of the memo.' }),
  });
  if (pageRes.status !== 200 || memoRes.status !== 200)
    throw new Error(`sample answers: ${pageRes.status} ${memoRes.status}`);
  memoOk++;
  memoSent++;
  const pageText = await pageRes.text();
  console.log(`a page of ${countEvents(pageText)} events is ${fmt(pageText.length)} bytes of JSON`);
  const bodies = join(dir, 'bodies.json');
  writeFileSync(bodies, JSON.stringify({ events: JSON.parse(pageText), memo: await memoRes.json() }));
  bare = await startServer<{ url: string }>(SERVER, ['bare', bodies]);

  const servers = { bare, api: app } as const;
  const loads = (server: Server, scenario: Scenario): ((seconds: number) => Promise<Load>) => {
    if (scenario === 'memo') return (s) => loadMemo(server.url, app.writer, app.companyIds, s);
    return (s) => loadEvents(server.url, app.reader, scenario === 'events' ? CONNECTIONS : 1, s);
  };
  const scenarios: Scenario[] = ['events', 'events1', 'memo'];
  if (WARM_UP_SECONDS)
    for (const [, server] of Object.entries(servers))
      for (const scenario of scenarios) {
        const warm = await loads(server, scenario)(WARM_UP_SECONDS); // warm-up: JIT, caches, hot account state
        if (server === app && scenario === 'memo') {
          memoOk += warm.result['2xx'];
          memoSent += warm.sent;
        }
      }
  const results: Results = {};
  for (let run = 0; run < RUNS; run++) {
    // Alternate the order so drift on a shared machine does not favour one side.
    const order = run % 2 === 0 ? (['bare', 'api'] as const) : (['api', 'bare'] as const);
    for (const scenario of scenarios)
      for (const label of order) {
        const server = servers[label];
        const measured = await measure(server, label, scenario, run, loads(server, scenario), results);
        if (label === 'api' && scenario === 'memo') {
          memoOk += measured.result['2xx'];
          memoSent += measured.sent;
        }
      }
  }

  // Durable and charged: every 200 of the memo route wrote one version, none lost.
  let versions = 0;
  for (let i = 0; i < app.companyIds.length; i += 20) {
    const memos = await Promise.all(
      app.companyIds.slice(i, i + 20).map(async (id) => {
        const res = await fetch(`${app.url}/api/v1/workspace/companies/${id}/memo`, {
          headers: { 'x-api-key': app.writer },
        });
        return ((await res.json()) as { data: { version: number } }).data.version;
      }),
    );
    versions += memos.reduce((a, b) => a + b, 0);
  }
  // Durable: every PATCH answered 200 had stored its version; the ones still in flight when a load
  // stopped (at most one per connection) may have been stored too, never more than were sent.
  const durable = versions >= memoOk && versions <= memoSent;
  console.log(
    `memo versions stored: ${fmt(versions)}; PATCHes answered 200: ${fmt(memoOk)}, sent: ${fmt(memoSent)} ` +
      `(${durable ? 'every answered write stored' : 'MISMATCH'})`,
  );
  if (!durable) process.exitCode = 1;

  const m = (name: string, field: keyof Results[string]) => median(results[name]![field]);
  console.log(`\nmedians of ${RUNS} runs (server CPU per request; × bare Fastify answering the same body):`);
  for (const [scenario, title] of [
    ['events', `GET /workspace/events?limit=${PAGE}, ${CONNECTIONS} readers`],
    ['events1', `GET /workspace/events?limit=${PAGE}, 1 reader`],
    ['memo', `PATCH /workspace/companies/{id}/memo, ${MEMO_CONNECTIONS} connections`],
  ] as const) {
    const api = `api ${scenario}`;
    const base = `bare ${scenario}`;
    const events = scenario === 'memo' ? '' : `, ${fmt(m(api, 'eps'))} events/s (bare ${fmt(m(base, 'eps'))})`;
    console.log(
      `${title}: ${fmt(m(api, 'rps'))} req/s${events} = ${((m(api, 'rps') / m(base, 'rps')) * 100).toFixed(1)}% of bare; ` +
        `latency p50 ${m(api, 'p50').toFixed(2)} ms, p99 ${m(api, 'p99').toFixed(1)} ms (bare p50 ${m(base, 'p50').toFixed(2)} ms); ` +
        `server CPU ${fmt(m(api, 'cpuUs'))} µs/request vs bare ${fmt(m(base, 'cpuUs'))} = ${(m(api, 'cpuUs') / m(base, 'cpuUs')).toFixed(1)}×`,
    );
  }
} finally {
  await Promise.all([stopServer(app), bare ? stopServer(bare) : Promise.resolve()]);
  rmSync(dir, { recursive: true, force: true });
}
