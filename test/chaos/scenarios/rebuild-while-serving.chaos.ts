// chaos rebuild-while-serving: one api (projections in process, 5,000 demo
// companies) serves reads and writes while `svc projections rebuild` (every projection, a
// separate process) runs several times over the same data directory. Throughout:
// - every read answers (200): webhook lists, single webhooks, the agent's status, paid discovery;
// - a webhook list (paged) always holds every webhook acknowledged (201) before the read began,
//   and its length never shrinks from one read to the next (no read sees a half-built generation);
// - the first page of discovery (5,000 companies, no writes) is the same page every time;
// - writes go on (201) during the rebuilds.
// Env: CHAOS_REBUILDS (3).
import { runScenario, type Scenario, until } from '../support/scenario.js';
import { pay, payInSandbox } from '../../agent-data/support/agent-client.js';
import { client } from '../../webhooks/support/http-client.js';

const REBUILDS = Number(process.env.CHAOS_REBUILDS ?? 3);

await runScenario('rebuild-while-serving', 300_000, async (s: Scenario) => {
  const dir = await s.tempDir();
  const env: Record<string, string> = {
    SVC_DATA_DIR: `${dir}/data`,
    SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
    SVC_WEBHOOKS_PER_ACCOUNT: '10000',
    SVC_METER_PRICES_USD: 'read.discovery_top=0.01',
    SVC_AGENT_RATE_LIMIT_PER_MINUTE: '1000000000',
    SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
    SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '1000000',
    SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
  };
  const platform = await s.platformKey(env);
  const { process: api, url } = await s.startApi(env);
  const call = client(url, platform.key);
  if (!(await until(async () => (await call('GET', '/v1/webhooks')).status === 200, 60_000)))
    s.fail('the platform key did not become usable');
  // The demo companies are imported in the background on a fresh store: wait for all of them.
  await api.waitForLine((l) => l.includes('demo data: '), 120_000, 'the demo import');
  const agent = await pay(url);
  s.check((await payInSandbox(agent.starter_checkout.url)).status < 400, 'the sandbox payment failed');
  const discovery = async () => {
    const r = await fetch(`${url}/api/v1/discovery/top?limit=100`, { headers: { 'x-api-key': agent.key.api_key } });
    type Item = { rank: number; score: number; company: { id: string } };
    const body = (await r.json()) as { data?: Item[] | { data?: Item[] } };
    const items = (Array.isArray(body.data) ? body.data : body.data?.data) ?? [];
    return { status: r.status, page: JSON.stringify(items.map((c) => [c.rank, c.company.id, c.score])) };
  };
  if (!(await until(async () => (await discovery()).status === 200, 30_000))) s.fail('discovery did not answer');
  const firstPage = (await discovery()).page;
  s.check(firstPage.length > 1000, `the discovery page is short: ${firstPage.slice(0, 200)}`);

  const acknowledged: string[] = [];
  const stats = { reads: 0, writes: 0, listReads: 0, longestReadMs: 0 };
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);
  let stop = false;

  const writer = async () => {
    for (let i = 0; !stop; i++) {
      const r = await call('POST', '/v1/webhooks', {
        url: `http://127.0.0.1:9/rebuild/${i}`,
        events: ['agent.completed'],
        secret: 'rebuild-secret-0123456789',
      });
      stats.writes++;
      if (r.status === 201) acknowledged.push(r.body.id as string);
      else problem(`write answered ${r.status} ${r.body.code ?? ''}`);
    }
  };
  const timed = async <T>(read: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await read();
    } finally {
      stats.reads++;
      stats.longestReadMs = Math.max(stats.longestReadMs, Math.round(performance.now() - started));
    }
  };
  const listReader = async () => {
    let previous = 0;
    while (!stop) {
      const known = acknowledged.length;
      const mustHold = new Set(acknowledged.slice(0, known));
      const ids = new Set<string>();
      let cursor: string | null = null;
      let ok = true;
      do {
        const r = await timed(() =>
          call('GET', `/v1/webhooks?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        if (r.status !== 200) {
          problem(`list answered ${r.status} ${r.body.code ?? ''}`);
          ok = false;
          break;
        }
        for (const w of r.body.data as Array<{ id: string }>) ids.add(w.id);
        cursor = (r.body.next_cursor as string | null) ?? null;
      } while (cursor);
      if (!ok) continue;
      stats.listReads++;
      const missing = [...mustHold].filter((id) => !ids.has(id)).length;
      if (missing > 0) problem(`a list lacked ${missing} acknowledged webhooks`);
      if (ids.size < previous) problem(`a list shrank from ${previous} to ${ids.size}`);
      previous = Math.max(previous, ids.size);
    }
  };
  const pointReader = async () => {
    while (!stop) {
      if (acknowledged.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        continue;
      }
      const id = acknowledged[Math.floor(Math.random() * acknowledged.length)]!;
      const r = await timed(() => call('GET', `/v1/webhooks/${id}`));
      if (r.status !== 200) problem(`GET an acknowledged webhook answered ${r.status}`);
      const st = await timed(() =>
        fetch(`${url}/api/v1/agents/status`, { headers: { 'x-api-key': agent.key.api_key } }),
      );
      await st.arrayBuffer();
      if (st.status !== 200) problem(`agent status answered ${st.status}`);
      const d = await timed(discovery);
      if (d.status !== 200) problem(`discovery answered ${d.status}`);
      else if (d.page !== firstPage) problem('the discovery page changed');
    }
  };

  const load = Promise.all([writer(), listReader(), listReader(), pointReader()]);
  const rebuildMs: number[] = [];
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (let n = 0; n < REBUILDS; n++) {
      const started = performance.now();
      const r = await s.cli(['projections', 'rebuild'], env, 180_000);
      rebuildMs.push(Math.round(performance.now() - started));
      s.check(r.code === 0, `projections rebuild ${n + 1} exited ${r.code}: ${r.stderr.slice(0, 1000)}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  } finally {
    stop = true;
    await load;
  }
  for (const [what, n] of problems) s.check(false, `${what} (${n} times)`);
  s.check(api.child.exitCode === null, 'the api exited');
  Object.assign(s.figures, {
    rebuilds: REBUILDS,
    rebuild_ms: rebuildMs.join('/'),
    reads: stats.reads,
    full_list_reads: stats.listReads,
    writes: stats.writes,
    acknowledged: acknowledged.length,
    longest_read_ms: stats.longestReadMs,
  });
});
