import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteEventStore } from '#eventstore';
import { type DeliveryAttemptData, deliveryStream } from '#webhooks';
import { svcInProcess as svc } from '../e2e/support/cli-in-process.js';
import { API_MAIN, LiveProcess } from '../e2e/support/processes.js';
import { TestReceiver } from './support/receiver.js';

type Json = Record<string, any>;
const lines = (out: string): Json[] =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Json);

/** Polls `check` until it returns a value (read models apply events asynchronously); never a fixed sleep. */
async function until<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * `svc audit deliveries`: a real run of the built api pushing workspace
 * webhooks to a receiver audits clean (and so do its credits); an attempt appended straight to a
 * delivery stream, too early for the schedule, makes the audit exit 1 naming the webhook.
 */
describe('svc audit deliveries (built api, the CLI in process, one data directory)', () => {
  let dir: string;
  let env: Record<string, string>;
  let api: LiveProcess;
  let url: string;
  let receiver: TestReceiver;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-e2e-audit-deliveries-'));
    env = { SVC_DATA_DIR: join(dir, 'data'), SVC_WEBHOOK_ALLOW_PRIVATE: 'true' };
    receiver = await TestReceiver.start();
    api = LiveProcess.start(API_MAIN, [], { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' });
    const line = await api.waitForLine((l) => l.includes('listening on http://'), 60_000, 'the listening line');
    url = /listening on (http:\/\/[^\s"]+)/.exec(line)![1]!;
  });
  after(async () => {
    await api?.stop('SIGTERM');
    await receiver?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function call(key: string, method: string, path: string, body?: unknown) {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
  }

  it('a normal run audits clean; a crafted early attempt breaks the schedule (exit 1)', async () => {
    const created = await svc(['workspaces', 'create', '--name', 'Audit Ventures'], env);
    assert.equal(created.code, 0, created.stderr);
    const tenant = lines(created.stdout)[0]!;
    const key = tenant.key.api_key as string;
    // The grant finds the key in the read model the api keeps: wait until the api knows it.
    await until(
      async () => ((await call(key, 'GET', '/workspace/companies')).status === 401 ? undefined : true),
      'the api to know the tenant key',
    );
    const granted = await svc(['credits', 'grant', '--key', tenant.key.id, '--usd', '50', '--reference', 'PO-1'], env);
    assert.equal(granted.code, 0, granted.stderr);

    const subscription = await call(key, 'POST', '/workspace/webhooks/subscriptions', {
      url: `http://127.0.0.1:${receiver.port}/audit`,
      events: ['workspace.company.added'],
    });
    assert.equal(subscription.status, 201, JSON.stringify(subscription.body));
    const webhookId = subscription.body.data.id as string;
    receiver.endpoint('/audit', subscription.body.data.secret);

    // The first push is answered 200; the second 500: attempt 1 failed, attempt 2 due in a minute.
    assert.equal((await call(key, 'POST', '/workspace/companies', { name: 'One', domain: 'one.example' })).status, 201);
    await receiver.until(() => receiver.at('/audit').length === 1, 15_000, 'the first push');
    receiver.reply('/audit', () => ({ status: 500, body: 'down' }));
    assert.equal((await call(key, 'POST', '/workspace/companies', { name: 'Two', domain: 'two.example' })).status, 201);
    await receiver.until(() => receiver.at('/audit').length === 2, 15_000, 'the second push');
    // The failed push is recorded, then refunded.
    await until(async () => {
      const s = await call(key, 'GET', '/agents/status');
      return s.body.data.refunded_usd === 1 ? true : undefined;
    }, 'the refund of the failed push');

    const clean = await svc(['audit', 'deliveries'], env);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stderr, /^svc audit deliveries: replaying the webhook engine's events in \$all, \d+ events\n/);
    assert.deepEqual(lines(clean.stdout), [
      {
        webhook_id: webhookId,
        channel: 'workspace',
        owner_id: tenant.tenant_id,
        status: 'active',
        deliveries: { succeeded: 1, failed: 0, pending: 1, held: 0, cancelled: 0 },
        attempts: { automatic: 2, manual: 0, outcome_unknown: 0 },
        breaks: [],
        ok: true,
      },
    ]);

    // The same run's credits audit clean too: 50 − 4 (subscribe) − 2 × 6 (companies) − 2 × 1 (pushes) + 1 (refund).
    const credits = await svc(['audit', 'credits', '--account', tenant.account_id], env);
    assert.equal(credits.code, 0, credits.stderr);
    const [account] = lines(credits.stdout);
    assert.deepEqual(
      [account!.balance_usd, account!.granted_usd, account!.charged_usd, account!.refunded_usd, account!.charges],
      [33, 50, 18, 1, 5],
    );
    assert.equal(account!.read_model_balance_usd, 33);
    assert.equal((await call(key, 'GET', '/agents/status')).body.data.balance_usd, 33);

    // Stop the api (no dispatcher reacts), then record attempt 2 two seconds after attempt 1.
    await api.stop('SIGTERM');
    const store = new SqliteEventStore({ path: join(dir, 'data', 'svc.sqlite') });
    let failed: { data: DeliveryAttemptData; revision: number } | undefined;
    try {
      for await (const e of store.readAll({ filter: { eventTypePrefixes: ['WebhookDeliveryAttempted'] } })) {
        const data = e.data as DeliveryAttemptData;
        if (!data.succeeded) failed = { data, revision: e.revision };
      }
      assert.ok(failed, 'the failed attempt is in the store');
      const early: DeliveryAttemptData = {
        ...failed.data,
        number: 2,
        automatic: 2,
        started_at: new Date(Date.parse(failed.data.started_at) + 2000).toISOString(),
        next_attempt_at: null,
      };
      await store.append(
        deliveryStream(failed.data.delivery_id),
        [{ type: 'WebhookDeliveryAttempted', data: early }],
        failed.revision,
      );
    } finally {
      await store.close();
    }

    const broken = await svc(['audit', 'deliveries'], env);
    assert.equal(broken.code, 1, broken.stderr);
    const [line] = lines(broken.stdout);
    assert.equal(line!.ok, false);
    assert.deepEqual(
      line!.breaks.map((b: Json) => [b.delivery_id, b.attempt, b.automatic, b.rule]),
      [[failed!.data.delivery_id, 2, 2, 'early']],
    );
    assert.ok(Date.parse(line!.breaks[0].due_at) >= Date.parse(failed!.data.started_at) + 60_000);
    assert.match(broken.stderr, new RegExp(`svc audit: webhook ${webhookId}: 1 schedule break`));

    const one = await svc(['audit', 'deliveries', '--webhook', webhookId], env);
    assert.equal(one.code, 1);
    assert.deepEqual(
      lines(one.stdout).map((l) => l.webhook_id),
      [webhookId],
    );
    const other = await svc(['audit', 'deliveries', '--webhook', 'sub_unknown'], env);
    assert.equal(other.code, 0, other.stderr);
    assert.equal(other.stdout, '');

    const bad = await svc(['audit', 'deliveries', '--bogus'], env);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /Usage: svc/);
  });
});
