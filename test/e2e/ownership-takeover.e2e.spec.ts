import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { client, type Answer } from '../webhooks/support/http-client.js';
import { TestReceiver } from '../webhooks/support/receiver.js';
import { API_MAIN, LiveProcess, WORKER_MAIN } from './support/processes.js';

const SECRET = 'takeover-e2e-secret-0123456789';

interface JobView {
  job: string;
  owner: string | null;
  here: boolean;
  since: string | null;
  expires_at: string | null;
}
interface WorkerHealth {
  owner: string;
  jobs: JobView[];
  projections: Array<{ name: string; position: number; lag: number }>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A worker with its health port; `health()` is null while it cannot answer (dead, starting). */
class Worker {
  process!: LiveProcess;
  constructor(
    readonly name: string,
    readonly port: number,
  ) {}
  start(env: Record<string, string>): void {
    this.process = LiveProcess.start(WORKER_MAIN, [], {
      ...env,
      SVC_WORKER_HEALTH_PORT: String(this.port),
      LOG_LEVEL: 'info',
    });
  }
  async health(): Promise<WorkerHealth | null> {
    try {
      const res = await fetch(`http://127.0.0.1:${this.port}/health`, { signal: AbortSignal.timeout(2000) });
      return res.status === 200 ? ((await res.json()) as WorkerHealth) : null;
    } catch {
      return null;
    }
  }
  /** Ms from `t` until the last of the jobs held here was taken (by the leases' own times). */
  async tookAllAfter(t: number): Promise<number> {
    const jobs = (await this.health())?.jobs ?? [];
    const after = jobs.map((j) => [j.job, Date.parse(j.since!) - t] as const).sort((x, y) => x[1] - y[1]);
    process.stdout.write(`# ${this.name} took: ${after.map(([job, ms]) => `${job} +${ms}`).join(', ')}\n`);
    return Math.max(...after.map(([, ms]) => ms));
  }
  /** The jobs this worker runs now; null when it does not answer (within 2 s). */
  async held(): Promise<string[] | null> {
    const health = await this.health();
    return health ? health.jobs.filter((j) => j.here).map((j) => j.job) : null;
  }
}

async function until<T>(
  what: string,
  timeoutMs: number,
  probe: () => Promise<T | null | undefined | false>,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One owner per background job (ADR 0067) with real processes: two workers (built mains) and
 * an api without projections on one embedded data directory. Each projection and each webhook
 * dispatcher has one owner; the owner is SIGKILLed, twice (A, then B after A came back): the other takes every job over
 * within 10 s (here at once: a process of this host that is gone; the lease-expiry path is in
 * background-ownership.unit.spec.ts). What the api records meanwhile is projected exactly once
 * and every scheduled delivery attempt reaches the receiver exactly once. (A paused owner is not
 * driven here: on one SQLite file, a process stopped inside a write transaction holds the write
 * lock, and nobody can write until it resumes; see ADR 0067.)
 */
describe('ownership of background jobs across two worker processes (built mains)', () => {
  let dataDir: string;
  let receiver: TestReceiver;
  let api: LiveProcess | undefined;
  const workers: Worker[] = [];
  // The test's load and overlap sampler run until it stops them; a failed assertion skips that,
  // so after() stops them too (the sampler would otherwise keep the process alive).
  const running = { load: true, sampling: true };
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-takeover-'));
    receiver = await TestReceiver.start();
  });
  after(async () => {
    running.load = false;
    running.sampling = false;
    for (const w of workers) {
      await w.process?.stop('SIGTERM');
    }
    await api?.stop('SIGTERM');
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('one owner per job; a killed owner is replaced within 10 s, twice; nothing applied or sent twice', async () => {
    const env = {
      SVC_DATA_DIR: dataDir,
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
      SVC_DEMO_DATA: 'false',
      HOST: '127.0.0.1',
      // An attempt a killed worker sent and could not record is recorded (outcome unknown) once
      // its lease expired (ADR 0070): within seconds here.
      SVC_WEBHOOK_TIMEOUT_MS: '4000',
      SVC_WEBHOOK_LEASE_MS: '8000',
      // The api waits this long for the workers' read models (the bootstrap key, the webhooks
      // created): a starved CI worker may take longer than the default 5 s. Commands during the
      // kills may still answer 503 READ_MODEL_BEHIND: counted below.
      SVC_READ_YOUR_WRITES_TIMEOUT_MS: '30000',
    };
    const a = new Worker('A', await freePort());
    const b = new Worker('B', await freePort());
    workers.push(a, b);
    a.start(env);
    const jobs = await until('worker A to own every job', 60_000, async () => {
      const h = await a.health();
      return h && h.jobs.length > 0 && h.jobs.every((j) => j.here) ? h.jobs.map((j) => j.job) : null;
    });
    assert.ok(jobs.includes('webhooks:platform') && jobs.some((j) => j.startsWith('projection:')), jobs.join());
    b.start(env);
    await until('worker B to answer', 60_000, () => b.health());
    assert.deepEqual(await until('B to answer', 10_000, () => b.held()), [], 'B stands by');

    api = LiveProcess.start(API_MAIN, [], { ...env, PORT: '0', SVC_RUN_PROJECTIONS: 'false', LOG_LEVEL: 'info' });
    const listening = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the api');
    const url = /listening on (http:\/\/[^\s"]+)/.exec(listening)![1]!;
    const keyLine = await api.waitForLine((l) => l.startsWith('Bootstrap admin API key: '), 60_000, 'the key');
    const call = client(url, keyLine.slice('Bootstrap admin API key: '.length).trim());

    const ok = await call('POST', '/v1/webhooks', {
      url: receiver.endpoint('/ok', SECRET),
      events: ['agent.completed'],
      secret: SECRET,
    });
    assert.equal(ok.status, 201, ok.text);
    const failing = await call('POST', '/v1/webhooks', {
      url: receiver.endpoint('/fail', SECRET, () => ({ status: 500, body: 'no' })),
      events: ['agent.completed'],
      secret: SECRET,
    });
    assert.equal(failing.status, 201, failing.text);

    // Never two workers running one job, sampled all along (a dead one answers nothing).
    const overlaps: string[] = [];
    const sampler = (async () => {
      while (running.sampling) {
        const [ha, hb] = await Promise.all([a.held(), b.held()]);
        for (const job of ha ?? []) if (hb?.includes(job)) overlaps.push(job);
        await new Promise((r) => setTimeout(r, 150));
      }
    })();

    // Load all along: repositories connected, test deliveries to both webhooks.
    const created = { repositories: 0, ok: [] as string[], failing: [] as string[] };
    // A command whose read models did not catch up within the api's wait (a takeover lasting
    // longer than SVC_READ_YOUR_WRITES_TIMEOUT_MS) answers 503 READ_MODEL_BEHIND: recorded, id unknown.
    const behind = { repo: 0, ok: 0, fail: 0 };
    const failures: string[] = [];
    const load = (async () => {
      for (let i = 0; running.load; i++) {
        const answers: Array<[string, Answer]> = [
          ['repo', await call('POST', '/v1/repositories', { name: `takeover/r${i}` })],
          ['ok', await call('POST', `/v1/webhooks/${ok.body.id}/test`)],
          ['fail', await call('POST', `/v1/webhooks/${failing.body.id}/test`)],
        ];
        for (const [kind, answer] of answers) {
          if (answer.status === 503 && answer.body.code === 'READ_MODEL_BEHIND') behind[kind as keyof typeof behind]++;
          else if (answer.status >= 300) failures.push(`${kind} ${answer.status} ${answer.text}`);
          else if (kind === 'repo') created.repositories++;
          else if (kind === 'ok') created.ok.push(answer.body.id as string);
          else created.failing.push(answer.body.id as string);
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    // Load under way before the first kill: a few rounds of the three calls answered.
    const answered = () => created.repositories + behind.repo + failures.length;
    await until('the load to be under way', 30_000, async () => answered() >= 3);
    // 1. Kill A, the owner of every job (SIGKILL): B takes them over. Then A comes back, standing by.
    const firstKill = Date.now();
    await a.process.stop('SIGKILL');
    // The probe waits longer than the aim: a new owner catching up on a starved machine may answer
    // its health port late. The takeover time itself comes from the leases' own times (below).
    await until('B to own every job after A was killed', 30_000, async () => (await b.held())?.length === jobs.length);
    const firstTakeoverMs = await b.tookAllAfter(firstKill);
    a.start(env);
    await until('A to answer again', 60_000, () => a.health());
    // A tries to take each job at its start and every second after; B renews every lease every
    // 2 s. Once B renewed them all after A answered, A has had its tries against live leases.
    const expiries = async () => new Map((await b.health())?.jobs.map((j) => [j.job, j.expires_at]) ?? []);
    const beforeRenewal = await expiries();
    await until('B to renew every lease while A is up', 30_000, async () => {
      const now = await expiries();
      return jobs.every((job) => now.get(job) && now.get(job)! > (beforeRenewal.get(job) ?? ''));
    });
    assert.deepEqual(await until('A to answer', 10_000, () => a.held()), [], 'the restarted worker stands by');
    assert.equal((await until('B to answer', 10_000, () => b.held())).length, jobs.length);

    // 2. Kill B (SIGKILL): A takes every job over.
    const secondKill = Date.now();
    await b.process.stop('SIGKILL');
    await until('A to own every job after B was killed', 30_000, async () => (await a.held())?.length === jobs.length);
    const secondTakeoverMs = await a.tookAllAfter(secondKill);

    // The load goes on through the second takeover: a few more rounds answered.
    const atSecondTakeover = answered();
    await until('the load to go on after the second takeover', 30_000, async () => answered() >= atSecondTakeover + 3);
    running.load = false;
    await load;
    running.sampling = false;
    await sampler;
    process.stdout.write(
      `# takeover after SIGKILL: ${firstTakeoverMs} ms (A → B), ${secondTakeoverMs} ms (B → A); ${created.repositories + behind.repo} repositories, ${created.ok.length + created.failing.length + behind.ok + behind.fail} deliveries (${behind.repo + behind.ok + behind.fail} answered 503 READ_MODEL_BEHIND)\n`,
    );

    assert.deepEqual(failures, [], 'the api answered every request');
    assert.deepEqual(overlaps, [], 'no job ran in two workers at once');
    assert.ok(firstTakeoverMs < 10_000, `killed owner replaced after ${firstTakeoverMs} ms`);
    assert.ok(secondTakeoverMs < 10_000, `killed owner replaced after ${secondTakeoverMs} ms`);

    // Read models: every event applied once.
    const caughtUp = await until('the projections to catch up', 30_000, async () => {
      const h = await a.health();
      return h && h.projections.every((p) => p.lag === 0) ? h : null;
    });
    assert.ok(caughtUp.projections.length > 0);
    let listed = 0;
    let cursor: string | null = null;
    do {
      const page: Answer = await call('GET', `/v1/repositories?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, page.text);
      listed += (page.body.data as unknown[]).length;
      cursor = page.body.next_cursor as string | null;
    } while (cursor);
    assert.equal(listed, created.repositories + behind.repo);

    // Every delivery recorded (those answered 202 and those answered 503 alike) reached the
    // receiver exactly once: each has one scheduled attempt in this run (a failed first attempt
    // is retried a minute later).
    async function deliveries(webhookId: string): Promise<Array<{ id: string; state: string; attempts: unknown[] }>> {
      const out: Array<{ id: string; state: string; attempts: unknown[] }> = [];
      let after: string | null = null;
      do {
        const page: Answer = await call(
          'GET',
          `/v1/webhooks/${webhookId}/deliveries?limit=100${after ? `&cursor=${after}` : ''}`,
        );
        assert.equal(page.status, 200, page.text);
        out.push(...(page.body.data as Array<{ id: string; state: string; attempts: unknown[] }>));
        after = page.body.next_cursor as string | null;
      } while (after);
      return out;
    }
    const okDeliveries = await deliveries(ok.body.id as string);
    const failDeliveries = await deliveries(failing.body.id as string);
    assert.equal(okDeliveries.length, created.ok.length + behind.ok);
    assert.equal(failDeliveries.length, created.failing.length + behind.fail);
    for (const id of created.ok)
      assert.ok(
        okDeliveries.some((d) => d.id === id),
        id,
      );
    for (const id of created.failing)
      assert.ok(
        failDeliveries.some((d) => d.id === id),
        id,
      );
    // Each delivery shows exactly one attempt (a replayed attempt event would add a second); an
    // attempt a killed worker sent before recording it is recorded by the next owner as
    // outcome unknown once its lease expired, not sent again (ADR 0070).
    type Attempted = {
      id: string;
      state: string;
      attempts: Array<{ status_code: number | null; error: string | null }>;
    };
    const settled = (await until('the attempts to be projected', 30_000, async () => {
      const all = [...(await deliveries(ok.body.id as string)), ...(await deliveries(failing.body.id as string))];
      return all.every((d) => d.attempts.length > 0) ? all : null;
    })) as Attempted[];
    for (const d of settled) assert.equal(d.attempts.length, 1, `${d.id}: ${JSON.stringify(d.attempts)}`);
    // What reached the receiver follows from what each attempt recorded:
    // - a status code: the receiver answered it, so it has it exactly once;
    // - "timeout: no response …": sent on a connected socket: exactly once;
    // - "timeout: not connected … (nothing sent)": a worker held up past the deadline before it
    //   connected (a starved machine): never;
    // - outcome unknown (a worker killed mid-send, ADR 0070), or a reset connection: at most once.
    // Anything else is a failure of this test.
    const seen = (path: string) => receiver.at(path).map((r) => r.headers['x-service-delivery'] as string);
    await new Promise((r) => setTimeout(r, 1000)); // a late or duplicate request would arrive now
    const received = [...seen('/ok'), ...seen('/fail')];
    const times = (id: string) => received.filter((x) => x === id).length;
    const unanswered: string[] = [];
    for (const d of settled) {
      const { status_code: status, error } = d.attempts[0]!;
      const n = times(d.id);
      const what = `${d.id}: ${status ?? error}, received ${n} times`;
      if (status !== null) assert.equal(n, 1, what);
      else {
        unanswered.push(error ?? 'null');
        if (error?.startsWith('timeout: no response')) assert.equal(n, 1, what);
        else if (error?.endsWith('(nothing sent)')) assert.equal(n, 0, what);
        else if (
          error?.startsWith('outcome_unknown') ||
          error === 'connection_reset' ||
          error?.startsWith('timeout: not connected')
        )
          assert.ok(n <= 1, what);
        else assert.fail(`${what}: an attempt this run cannot explain`);
      }
    }
    for (const [path, list] of [
      ['/ok', okDeliveries],
      ['/fail', failDeliveries],
    ] as const) {
      const got = seen(path);
      assert.equal(new Set(got).size, got.length, `${path}: a delivery sent twice`);
      for (const id of got)
        assert.ok(
          list.some((d) => d.id === id),
          `${path}: ${id} unknown`,
        );
    }
    // Failed attempts (500, unknown outcome, no answer) leave the delivery waiting for its retry.
    const succeeded = new Set(settled.filter((d) => d.attempts[0]!.status_code === 200).map((d) => d.id));
    for (const d of await deliveries(ok.body.id as string))
      assert.equal(d.state, succeeded.has(d.id) ? 'succeeded' : 'pending', d.id);
    for (const d of await deliveries(failing.body.id as string)) assert.equal(d.state, 'pending', d.id);
    process.stdout.write(
      `# attempts without an answer: ${unanswered.length}${unanswered.length ? ` (${unanswered.join('; ')})` : ''}\n`,
    );
    // The webhook projection counts failed automatic attempts (read-modify-write): one per failed delivery.
    const failingNow = await call('GET', `/v1/webhooks/${failing.body.id}`);
    assert.equal(failingNow.body.failure_count, failDeliveries.length);
  });
});
