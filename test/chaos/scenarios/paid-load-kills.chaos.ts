// chaos paid-load-kills: two api processes without projections and one worker
// on one data directory; paid reads over 200 funded keys; one api and the worker SIGKILLed mid-load,
// restarted, the load finished. Then `svc audit credits` is ok for every account, no balance is
// below zero, and per key: paid 200s the client saw <= charges recorded <= paid 200s + requests
// of that key in flight at the kill.
//
// The load client is our own loop over fetch (undici), not autocannon: the bound needs per-key
// outcomes and per-key in-flight counts at the instant of the kill, which autocannon does not give.
// Env: CHAOS_KEYS (200), CHAOS_REQUESTS (30000), CHAOS_CONNECTIONS (48).
import { jsonLines, runScenario, type Scenario, until } from '../support/scenario.js';
import { pay, payInSandbox } from '../../agent-data/support/agent-client.js';
import type { LiveProcess } from '../../e2e/support/processes.js';

const KEYS = Number(process.env.CHAOS_KEYS ?? 200);
const REQUESTS = Number(process.env.CHAOS_REQUESTS ?? 30_000);
const CONNECTIONS = Number(process.env.CHAOS_CONNECTIONS ?? 48);
/** $0.25 a read against the $29 starter pack: 116 paid reads per key, then 402s (the floor is tested too). */
const PRICE_USD = 0.25;
const PATH = '/api/v1/discovery/top?limit=5';

interface KeyLoad {
  accountId: string;
  key: string;
  ok: number;
  paymentRequired: number;
  other: number;
  networkErrors: number;
  inFlight: Map<number, number>;
  inFlightAtKill: number;
}

interface Api {
  id: number;
  url: string | null;
  process: LiveProcess | null;
}

await runScenario('paid-load-kills', 300_000, async (s: Scenario) => {
  const dir = await s.tempDir();
  const env: Record<string, string> = {
    SVC_DATA_DIR: `${dir}/data`,
    SVC_METER_PRICES_USD: `read.discovery_top=${PRICE_USD}`,
    SVC_AGENT_RATE_LIMIT_PER_MINUTE: '1000000000',
    SVC_SIGNUP_LIMIT_PER_HOUR: '1000000',
    SVC_ANONYMOUS_WRITE_LIMIT_PER_MINUTE: '1000000',
    SVC_ANONYMOUS_GLOBAL_LIMIT_PER_MINUTE: '100000000',
  };
  const apiEnv = { ...env, SVC_RUN_PROJECTIONS: 'false' };
  let worker = await s.startWorker(env);
  const apis: Api[] = [
    { id: 0, url: null, process: null },
    { id: 1, url: null, process: null },
  ];
  const startApi = async (api: Api) => {
    const started = await s.startApi(apiEnv);
    api.process = started.process;
    api.url = started.url;
  };
  await Promise.all(apis.map(startApi));

  // 200 accounts, each with a key funded through the sandbox checkout (a $29 starter pack).
  const keys: KeyLoad[] = [];
  const setupStarted = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < KEYS) {
        const i = next++;
        const url = apis[i % 2]!.url!;
        const issued = await pay(url, { agent_name: `chaos-${i}` });
        const paid = await payInSandbox(issued.starter_checkout.url);
        s.check(paid.status < 400, `sandbox payment of key ${i} answered ${paid.status}`);
        keys.push({
          accountId: issued.account_id,
          key: issued.key.api_key,
          ok: 0,
          paymentRequired: 0,
          other: 0,
          networkErrors: 0,
          inFlight: new Map(),
          inFlightAtKill: 0,
        });
      }
    }),
  );
  // The worker projects the keys: each answers on both apis before the load starts.
  const ready = await until(async () => {
    for (const k of keys.slice(-5))
      for (const api of apis) {
        const r = await fetch(`${api.url}/api/v1/agents/status`, { headers: { 'x-api-key': k.key } });
        if (r.status !== 200) return false;
        const body = (await r.json()) as { data: { balance_usd: number } };
        if (body.data.balance_usd !== 29) return false;
      }
    return true;
  }, 60_000);
  if (!ready) s.fail('the funded keys did not become usable within 60 s');
  s.figures.setup_s = ((performance.now() - setupStarted) / 1000).toFixed(1);

  // The load: request i uses key i mod KEYS, on the next api that is up.
  let issued = 0;
  let done = 0;
  let rr = 0;
  const statuses = new Map<number, number>();
  const killAt = Math.floor(REQUESTS * 0.25);
  let killed: Promise<void> = Promise.resolve();
  const loadStarted = performance.now();
  const killAndRestart = async () => {
    const victim = apis[0]!;
    const proc = victim.process!;
    // In the same tick as the kill: every request of each key still open on that api.
    for (const k of keys) k.inFlightAtKill = k.inFlight.get(victim.id) ?? 0;
    victim.url = null;
    proc.child.kill('SIGKILL');
    worker.child.kill('SIGKILL');
    await Promise.all([proc.exited, worker.exited]);
    s.figures.in_flight_at_kill = keys.reduce((n, k) => n + k.inFlightAtKill, 0);
    s.figures.killed_at = done;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const restarting = performance.now();
    [worker] = await Promise.all([s.startWorker(env), startApi(victim)]);
    s.figures.restart_ms = Math.round(performance.now() - restarting);
    s.figures.restarted_at = done;
  };
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (issued < REQUESTS) {
        const i = issued++;
        if (i === killAt) killed = killAndRestart();
        const k = keys[i % keys.length]!;
        const up = apis.filter((a) => a.url !== null);
        const api = up[rr++ % up.length]!;
        k.inFlight.set(api.id, (k.inFlight.get(api.id) ?? 0) + 1);
        try {
          const r = await fetch(`${api.url}${PATH}`, { headers: { 'x-api-key': k.key } });
          await r.arrayBuffer();
          statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
          if (r.status === 200) k.ok++;
          else if (r.status === 402) k.paymentRequired++;
          else k.other++;
        } catch {
          k.networkErrors++;
        } finally {
          k.inFlight.set(api.id, k.inFlight.get(api.id)! - 1);
          done++;
        }
      }
    }),
  );
  await killed;
  const loadS = (performance.now() - loadStarted) / 1000;
  const ok = keys.reduce((n, k) => n + k.ok, 0);
  Object.assign(s.figures, {
    requests: REQUESTS,
    load_s: loadS.toFixed(1),
    rps: Math.round(REQUESTS / loadS),
    paid_200: ok,
    status_402: keys.reduce((n, k) => n + k.paymentRequired, 0),
    other_status: keys.reduce((n, k) => n + k.other, 0),
    network_errors: keys.reduce((n, k) => n + k.networkErrors, 0),
  });
  s.check(
    keys.every((k) => k.other === 0),
    `answers other than 200/402: ${JSON.stringify([...statuses])}`,
  );
  for (const k of keys)
    s.check(
      k.networkErrors <= k.inFlightAtKill,
      `key of ${k.accountId}: ${k.networkErrors} network errors, ${k.inFlightAtKill} in flight at the kill`,
    );

  // Let the worker catch up, stop everything, then replay the event store.
  for (const api of apis) await api.process?.stop('SIGTERM');
  await worker.stop('SIGTERM');
  const audit = await s.cli(['audit', 'credits'], env);
  s.check(audit.code === 0, `audit credits exited ${audit.code}: ${audit.stderr.slice(0, 2000)}`);
  const lines = jsonLines(audit.stdout);
  const byAccount = new Map(lines.map((l) => [l.account_id as string, l]));
  let charges = 0;
  let slack = 0;
  for (const k of keys) {
    const line = byAccount.get(k.accountId);
    if (!s.check(line !== undefined, `audit has no line for ${k.accountId}`)) continue;
    charges += line!.charges as number;
    slack += (line!.charges as number) - k.ok;
    s.check(line!.ok === true, `audit not ok for ${k.accountId}: ${JSON.stringify(line!.mismatches)}`);
    s.check((line!.balance_usd as number) >= 0, `${k.accountId} below zero: ${line!.balance_usd}`);
    s.check(
      k.ok <= line!.charges && line!.charges <= k.ok + k.inFlightAtKill,
      `${k.accountId}: 200s ${k.ok}, charges ${line!.charges}, in flight at the kill ${k.inFlightAtKill}`,
    );
  }
  Object.assign(s.figures, {
    accounts_audited: lines.length,
    audit_ok: lines.filter((l) => l.ok).length,
    charges,
    charged_not_answered: slack,
  });
});
