// chaos webhooks-flapping: 1,000 deliveries (test events) to receivers that
// answer 500, time out, reset the connection, redirect, flap (fail, then succeed) or succeed;
// the worker (projections and dispatchers) SIGKILLed twice during the run and restarted; one api
// without projections. The retry schedule is shrunk 1,000 times (SVC_WEBHOOK_RETRY_SCALE=0.001:
// 60 ms ... 7.2 s) so every delivery runs through its five attempts within the run.
// Then: `svc audit deliveries` is ok, every delivery reached a final state (succeeded, failed or
// cancelled by its webhook's disabling; none pending or held), and each receiver saw each delivery
// id at most once per recorded attempt: an attempt the killed worker sent and could not record is
// recorded by the next worker with an unknown outcome, not sent again (ADR 0070).
// Env: CHAOS_DELIVERIES (1000).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SqliteEventStore } from '#eventstore';
import { SqliteDeliveryLeases } from '#webhooks';
import { jsonLines, runScenario, type Scenario, until } from '../support/scenario.js';
import { client } from '../../webhooks/support/http-client.js';
import type { LiveProcess } from '../../e2e/support/processes.js';

const DELIVERIES = Number(process.env.CHAOS_DELIVERIES ?? 1000);
const TIMEOUT_MS = 500;
const BEHAVIOURS = ['ok', 'status500', 'hang', 'reset', 'redirect', 'flap'] as const;
type Behaviour = (typeof BEHAVIOURS)[number];
const SECRET = 'chaos-webhooks-secret-0123456789';

interface Arrival {
  at: number;
  /** When the exchange ended on the receiver's side (answered, reset, or closed by the sender). */
  end: number;
}

await runScenario('webhooks-flapping', 240_000, async (s: Scenario) => {
  // The receivers: one server, a path per behaviour; every request noted per delivery id.
  const seen = new Map<string, Arrival[]>();
  const seenAt = (id: string) => seen.get(id) ?? [];
  let requests = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const id = String(req.headers['x-service-delivery'] ?? '');
    const behaviour = (req.url ?? '').split('/')[1] as Behaviour;
    requests++;
    const arrivals = seen.get(id) ?? [];
    const arrival = { at: Date.now(), end: Infinity };
    arrivals.push(arrival);
    seen.set(id, arrivals);
    res.on('close', () => (arrival.end = Date.now()));
    req.resume();
    req.on('end', () => {
      switch (behaviour) {
        case 'ok':
          return res.writeHead(200).end('ok');
        case 'status500':
          return res.writeHead(500).end('boom');
        case 'hang':
          // Never answers: the sender's timeout ends it.
          return setTimeout(() => res.destroy(), 10 * TIMEOUT_MS).unref();
        case 'reset':
          return req.socket.destroy();
        case 'redirect':
          return res.writeHead(302, { location: '/ok' }).end();
        case 'flap':
          // Fails the first two attempts of each delivery, then succeeds.
          return arrivals.length >= 3 ? res.writeHead(204).end() : res.writeHead(503).end();
        default:
          return res.writeHead(404).end();
      }
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const dir = await s.tempDir();
    const env: Record<string, string> = {
      SVC_DATA_DIR: `${dir}/data`,
      SVC_DEMO_DATA: 'false',
      SVC_WEBHOOK_ALLOW_PRIVATE: 'true',
      SVC_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      SVC_WEBHOOK_RETRY_SCALE: '0.001',
      // An attempt the killed worker sent and never recorded is recorded this long after (ADR 0070).
      SVC_WEBHOOK_LEASE_MS: '5000',
    };
    const platform = await s.platformKey(env);
    let worker: LiveProcess = await s.startWorker(env);
    const { process: api, url } = await s.startApi({ ...env, SVC_RUN_PROJECTIONS: 'false', SVC_BOOTSTRAP: 'false' });
    const call = client(url, platform.key);
    if (!(await until(async () => (await call('GET', '/v1/webhooks')).status === 200, 60_000)))
      s.fail('the key did not become usable (the worker projects it)');

    // Two webhooks per behaviour (the platform's default limit is 20 per account).
    const webhooks: Array<{ id: string; behaviour: Behaviour }> = [];
    for (const behaviour of BEHAVIOURS)
      for (let i = 0; i < 2; i++) {
        const created = await call('POST', '/v1/webhooks', {
          url: `${receiverUrl}/${behaviour}/${i}`,
          events: ['agent.completed'],
          secret: SECRET,
        });
        if (created.status !== 201) s.fail(`creating a webhook answered ${created.status}: ${created.text}`);
        webhooks.push({ id: created.body.id as string, behaviour });
      }

    // The deliveries: test events spread over the webhooks, the worker killed twice meanwhile.
    const deliveries = new Map<string, Behaviour>();
    /** Each kill: when it was sent, and when the next worker was started (nothing it sends arrives before). */
    const kills: Array<{ at: number; restart: number }> = [];
    const killWorker = async () => {
      const at = Date.now();
      await s.kill(worker);
      await new Promise((resolve) => setTimeout(resolve, 300));
      kills.push({ at, restart: Date.now() });
      worker = await s.startWorker(env);
    };
    const started = Date.now();
    let reenabled = 0;
    let recordedUnanswered = 0;
    let next = 0;
    let killing: Promise<void> = Promise.resolve();
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (next < DELIVERIES) {
          const i = next++;
          if (i === Math.floor(DELIVERIES / 2)) killing = killWorker();
          const webhook = webhooks[i % webhooks.length]!;
          let test = await call('POST', `/v1/webhooks/${webhook.id}/test`);
          // A receiver that keeps failing gets its webhook disabled (D12): its owner turns it back
          // on, as an operator would, and the test event goes out then.
          for (let tries = 0; test.status === 409 && test.body.code === 'WEBHOOK_DISABLED' && tries < 5; tries++) {
            reenabled++;
            await call('PATCH', `/v1/webhooks/${webhook.id}`, { active: true });
            test = await call('POST', `/v1/webhooks/${webhook.id}/test`);
          }
          // While the worker is down the event is recorded but the api cannot read it back in
          // time: a 503 READ_MODEL_BEHIND, whose delivery exists all the same (counted below).
          if (test.status === 503 && test.body.code === 'READ_MODEL_BEHIND') {
            recordedUnanswered++;
            continue;
          }
          if (!s.check(test.status === 202, `test event ${i} answered ${test.status}: ${test.text}`)) continue;
          deliveries.set(test.body.id as string, webhook.behaviour);
        }
      }),
    );
    await killing;
    const createS = ((Date.now() - started) / 1000).toFixed(1);
    // The second kill while retries are under way.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await killWorker();

    // Wait until nothing is pending or held any more (the schedule ends ~9.4 s after a first attempt).
    const audit = () => s.cli(['audit', 'deliveries'], env);
    let lines: Array<Record<string, any>> = [];
    let last: Awaited<ReturnType<typeof audit>> | undefined;
    const settled = await until(
      async () => {
        last = await audit();
        lines = jsonLines(last.stdout);
        return lines.every((l) => l.deliveries.pending === 0 && l.deliveries.held === 0);
      },
      90_000,
      1000,
    );
    s.figures.settle_s = ((Date.now() - started) / 1000).toFixed(1);
    s.check(settled, `deliveries still pending or held: ${JSON.stringify(lines.map((l) => l.deliveries))}`);
    // Attempts the killed workers sent and never recorded, whose deliveries a disable may have
    // cancelled since: the worker records them once their leases expired (ADR 0070).
    const leases = new SqliteDeliveryLeases({ path: `${dir}/data/webhook-leases.sqlite` });
    try {
      const recovered = await until(async () => (await leases.interrupted(1)).length === 0, 30_000, 500);
      s.check(recovered, `attempts sent and never recorded: ${JSON.stringify(await leases.interrupted(20))}`);
    } finally {
      await leases.close();
    }
    await api.stop('SIGTERM');
    await worker.stop('SIGTERM');
    last = await audit();
    lines = jsonLines(last.stdout);
    s.check(last.code === 0, `audit deliveries exited ${last.code}: ${last.stderr.slice(0, 2000)}`);
    for (const l of lines)
      s.check(l.ok === true, `audit: webhook ${l.webhook_id} breaks: ${JSON.stringify(l.breaks).slice(0, 1000)}`);
    const total = { pending: 0, held: 0, succeeded: 0, failed: 0, cancelled: 0 } as Record<string, number>;
    for (const l of lines)
      for (const [k, v] of Object.entries(l.deliveries)) total[k] = (total[k] ?? 0) + (v as number);
    const counted = Object.values(total).reduce((a, b) => a + b, 0);
    s.check(
      counted === deliveries.size + recordedUnanswered,
      `the audit counts ${counted} deliveries; ${deliveries.size} answered 202, ${recordedUnanswered} 503 READ_MODEL_BEHIND`,
    );

    // Recorded attempts per delivery (their start times), from the event store itself.
    const recorded = new Map<string, number[]>();
    let unknown = 0;
    const store = new SqliteEventStore({ path: `${dir}/data/svc.sqlite` });
    try {
      for await (const e of store.readAll({ filter: { streamPrefixes: ['webhookdelivery-'] } }))
        if (e.type === 'WebhookDeliveryAttempted') {
          const d = e.data as { delivery_id: string; started_at: string; error: string | null };
          if (d.error?.startsWith('outcome_unknown')) unknown++;
          const list = recorded.get(d.delivery_id) ?? [];
          list.push(Date.parse(d.started_at));
          recorded.set(d.delivery_id, list);
        }
    } finally {
      await store.close();
    }
    // Each recorded attempt is matched, in order, with the first request the receiver saw at or
    // after its start. A request left over is one no recorded attempt accounts for: a send nobody
    // recorded, or one scheduled attempt sent twice (before ADR 0070, the last request of a killed
    // worker was sent again after the restart).
    let unaccounted = 0;
    let notReceived = 0;
    for (const [id, behaviour] of deliveries) {
      const arrivals = [...seenAt(id)].sort((a, b) => a.at - b.at);
      const starts = [...(recorded.get(id) ?? [])].sort((a, b) => a - b);
      const used = new Set<number>();
      let from = 0;
      for (const start of starts) {
        let k = from;
        while (k < arrivals.length && arrivals[k]!.at < start - 5) k++;
        if (k < arrivals.length) {
          used.add(k);
          from = k + 1;
        } else notReceived++; // the connection failed (or the worker was killed) before the request arrived
      }
      const leftOver = arrivals.filter((_, k) => !used.has(k));
      unaccounted += leftOver.length;
      s.check(
        leftOver.length === 0,
        `delivery ${id} (${behaviour}): ${leftOver.length} request(s) no recorded attempt accounts for; arrivals ${JSON.stringify(arrivals.map((x) => x.at))}, recorded starts ${JSON.stringify(starts)}, kills ${JSON.stringify(kills)}`,
      );
    }
    Object.assign(s.figures, {
      deliveries: counted,
      answered_202: deliveries.size,
      webhooks: webhooks.length,
      worker_kills: kills.length,
      create_s: createS,
      reenabled,
      receiver_requests: requests,
      attempts_recorded: [...recorded.values()].reduce((a, b) => a + b.length, 0),
      succeeded: total.succeeded,
      failed: total.failed,
      cancelled: total.cancelled,
      pending: total.pending,
      held: total.held,
      requests_unaccounted: unaccounted,
      outcome_unknown: unknown,
      attempts_not_received: notReceived,
      answered_503_recorded: recordedUnanswered,
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
