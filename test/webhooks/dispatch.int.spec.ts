import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { CLOCK, type Clock, FakeClock, SecretBox } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { ProjectionRunner, ProjectionStore } from '#projections';
import {
  channelNames,
  DocumentLeases,
  SqliteDeliveryLeases,
  WebhookDispatcher,
  WebhookSecrets,
  WebhookSender,
} from '#webhooks';
import { platformWebhookChannel } from '#platform';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { type Body, client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';
import { MINUTE, platformDispatcher, publishPlatformEvent } from './support/webhook-fixtures.js';

const SECRET = 'dispatch-secret-0123456789';
const names = channelNames(platformWebhookChannel);

describe('webhook dispatching', () => {
  let api: TestApi;
  let fast: TestReceiver;
  let slow: TestReceiver;
  const clock = new FakeClock('2026-06-01T00:00:00.000Z');
  before(async () => {
    api = await startTestApi({
      clock,
      env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_WEBHOOK_CONCURRENCY_PER_HOST: '2' },
    });
    fast = await TestReceiver.start();
    slow = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await fast?.close();
    await slow?.close();
  });

  it('a slow receiver holds only its own per-host slots: deliveries to others go on', async () => {
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const fastUrl = fast.endpoint('/fast', SECRET);
    const slowUrl = slow.endpoint('/slow', SECRET, () => ({ status: 200, hold: true }));
    assert.equal(
      (await call('POST', '/v1/webhooks', { url: slowUrl, events: ['agent.completed'], secret: SECRET })).status,
      201,
    );
    assert.equal(
      (await call('POST', '/v1/webhooks', { url: fastUrl, events: ['agent.completed'], secret: SECRET })).status,
      201,
    );
    for (let i = 0; i < 6; i++) await publishPlatformEvent(api.app, account.accountId, 'agent.completed', { clock });
    // The background dispatcher sends: all six reach the fast receiver while the slow one holds two.
    await fast.until(() => fast.at('/fast').length === 6, 10_000, 'six deliveries to the fast receiver');
    assert.equal(slow.heldCount, 2, 'at most SVC_WEBHOOK_CONCURRENCY_PER_HOST requests to the slow host');
    assert.equal(slow.at('/slow').length, 2);
    while (slow.at('/slow').length < 6 || slow.heldCount > 0) {
      await slow.until(() => slow.heldCount > 0, 10_000, 'the next held request');
      slow.release();
    }
    assert.equal(slow.at('/slow').length, 6);
    assert.ok(slow.at('/slow').every((r) => r.signatureValid));
  });

  it('a projection rebuild reproduces the deliveries and sends nothing again', async () => {
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    let failing = true;
    const url = fast.endpoint('/rebuild', SECRET, (r) => ({
      status: failing && r.body.type === 'agent.failed' ? 500 : 200,
    }));
    const webhookId = (
      await call('POST', '/v1/webhooks', { url, events: ['agent.completed', 'agent.failed'], secret: SECRET })
    ).body.id as string;
    await publishPlatformEvent(api.app, account.accountId, 'agent.completed', { clock });
    await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    await platformDispatcher(api.app).drain();
    assert.equal(fast.at('/rebuild').length, 2);

    const runner = api.app.get(ProjectionRunner);
    const before = await snapshot(api);
    const [result] = await runner.rebuild(names.projection);
    assert.ok(result && result.generation > 1);
    const rebuilt = await snapshot(api);
    assert.deepEqual(rebuilt, before, 'rebuild equals incremental');

    await platformDispatcher(api.app).drain();
    assert.equal(fast.at('/rebuild').length, 2, 'nothing resent after the rebuild');
    const list = (await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.data as Body[];
    assert.deepEqual(list.map((d) => d.state).sort(), ['pending', 'succeeded']);
    // The pending retry still fires once, on time.
    failing = false;
    clock.advance(MINUTE);
    await platformDispatcher(api.app).drain();
    assert.equal(fast.at('/rebuild').length, 3);
    assert.deepEqual(
      ((await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.data as Body[]).map((d) => d.state),
      ['succeeded', 'succeeded'],
    );
  });

  it('two dispatchers sharing the stores (document leases, as in the scaled mode) never send one attempt twice', async () => {
    // The api's own dispatcher steps aside; two others take over, as two worker processes would.
    await platformDispatcher(api.app).stop();
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const url = fast.endpoint('/leases', SECRET);
    assert.equal(
      (await call('POST', '/v1/webhooks', { url, events: ['approval.requested'], secret: SECRET })).status,
      201,
    );
    for (let i = 0; i < 40; i++)
      await publishPlatformEvent(api.app, account.accountId, 'approval.requested', { clock });
    const documents = api.app.get<DocumentStore>(DOCUMENT_STORE);
    const make = () =>
      new WebhookDispatcher(platformWebhookChannel, {
        events: api.app.get<EventStore>(EVENT_STORE),
        projections: api.app.get(ProjectionStore),
        runner: api.app.get(ProjectionRunner),
        clock: api.app.get<Clock>(CLOCK),
        sender: new WebhookSender({ allowPrivate: true, timeoutMs: 5000 }),
        secrets: api.app.get(WebhookSecrets),
        leases: new DocumentLeases(documents),
      });
    const [a, b] = [make(), make()];
    await Promise.all([a.drain(), b.drain()]);
    const ids = fast.at('/leases').map((r) => String(r.headers['x-service-delivery']));
    assert.equal(ids.length, 40);
    assert.equal(new Set(ids).size, 40, 'each delivery sent once');
    assert.ok(
      a.getStats().attempts > 0 && b.getStats().attempts > 0,
      `both worked: ${a.getStats().attempts} + ${b.getStats().attempts}`,
    );
    assert.equal(a.getStats().attempts + b.getStats().attempts, 40);
  });

  it("a secret that cannot be read holds the webhook's deliveries: one log line, no attempt; with the key they all go", async () => {
    // The api's dispatcher was stopped by the test before; these stand in for it.
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const url = fast.endpoint('/no-key', SECRET);
    const webhookId = (await call('POST', '/v1/webhooks', { url, events: ['agent.failed'], secret: SECRET })).body
      .id as string;
    for (let i = 0; i < 5; i++) await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    const errors: string[] = [];
    const deps = {
      events: api.app.get<EventStore>(EVENT_STORE),
      projections: api.app.get(ProjectionStore),
      runner: api.app.get(ProjectionRunner),
      clock: api.app.get<Clock>(CLOCK),
      sender: new WebhookSender({ allowPrivate: true, timeoutMs: 5000 }),
      leases: new SqliteDeliveryLeases({ path: ':memory:' }),
    };
    const documents = api.app.get<DocumentStore>(DOCUMENT_STORE);
    const keyless = new WebhookDispatcher(platformWebhookChannel, {
      ...deps,
      secrets: new WebhookSecrets(documents, new SecretBox(randomBytes(32))),
      logger: { log: () => undefined, warn: () => undefined, error: (m: string) => void errors.push(m) },
    });
    for (let i = 0; i < 3; i++) await keyless.drain();
    assert.equal(fast.at('/no-key').length, 0);
    assert.equal(keyless.getStats().attempts, 0);
    assert.equal(errors.length, 1, errors.join('\n'));
    assert.match(
      errors[0]!,
      new RegExp(
        `webhook ${webhookId}: its signing secret cannot be read \\(webhook secret .* which this process does not have`,
      ),
    );
    const states = ((await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.data as Body[]).map((d) => [
      d.state,
      (d.attempts as unknown[]).length,
    ]);
    assert.deepEqual(
      states,
      Array.from({ length: 5 }, () => ['pending', 0]),
    );

    await new WebhookDispatcher(platformWebhookChannel, { ...deps, secrets: api.app.get(WebhookSecrets) }).drain();
    assert.equal(fast.at('/no-key').length, 5);
    assert.ok(fast.at('/no-key').every((r) => r.signatureValid));
  });

  it('reads no due delivery while its read model is behind what it knows (a restart replaying a disable); then sends', async () => {
    // Found by `npm run chaos webhooks-flapping`: after a worker restart the dispatcher gave up
    // waiting for its read model after 5 s and sent from it, before it showed a disable.
    await platformDispatcher(api.app).stop();
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const url = fast.endpoint('/behind', SECRET);
    assert.equal(
      (await call('POST', '/v1/webhooks', { url, events: ['approval.requested'], secret: SECRET })).status,
      201,
    );
    for (let i = 0; i < 3; i++) await publishPlatformEvent(api.app, account.accountId, 'approval.requested', { clock });
    const real = api.app.get(ProjectionRunner);
    let behind = true;
    let refused = 0;
    // The runner as the dispatcher sees it: "not there yet" (a waitFor timing out) while `behind`.
    const runner = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== 'waitFor') return Reflect.get(target, prop, receiver) as unknown;
        return (...args: Parameters<ProjectionRunner['waitFor']>) => {
          if (!behind) return target.waitFor(...args);
          refused++;
          return Promise.reject(new Error('timed out (test)'));
        };
      },
    });
    const dispatcher = new WebhookDispatcher(platformWebhookChannel, {
      events: api.app.get<EventStore>(EVENT_STORE),
      projections: api.app.get(ProjectionStore),
      runner,
      clock: api.app.get<Clock>(CLOCK),
      sender: new WebhookSender({ allowPrivate: true, timeoutMs: 5000 }),
      secrets: api.app.get(WebhookSecrets),
      leases: new SqliteDeliveryLeases({ path: ':memory:' }),
    });
    dispatcher.start();
    try {
      // The receiver's `until` wakes on requests only: poll the count here.
      for (const deadline = Date.now() + 10_000; refused < 3; await new Promise((r) => setTimeout(r, 20)))
        assert.ok(Date.now() < deadline, `the dispatcher asked ${refused} times`);
      assert.equal(fast.at('/behind').length, 0, 'nothing sent from a read model behind');
      assert.equal(dispatcher.getStats().refills, 0);
      behind = false;
      await fast.until(() => fast.at('/behind').length === 3, 10_000, 'the three deliveries once caught up');
    } finally {
      await dispatcher.stop();
    }
  });
});

/** Every document of the channel's projection (active generation), by collection and id. */
async function snapshot(api: TestApi): Promise<Record<string, unknown[]>> {
  const store = api.app.get(ProjectionStore);
  store.invalidate();
  const out: Record<string, unknown[]> = {};
  for (const c of [names.webhooks, names.subscriptions, names.deliveries, names.payloads]) {
    const docs: unknown[] = [];
    let after: string | undefined;
    do {
      const page = await store.collection(names.projection, c).find({}, { limit: 1000, ...(after ? { after } : {}) });
      docs.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after);
    out[c] = docs;
  }
  return out;
}
