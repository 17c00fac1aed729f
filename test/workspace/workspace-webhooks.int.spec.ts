import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import { Webhook } from 'standardwebhooks';
import { CreateTenantCommand, type CreatedTenant, WorkspaceDeliveryMeter } from '#agent-workspace';
import { GrantCreditsCommand } from '#agent-billing';
import { type AttemptContext, WebhookDispatchers } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay, status, withKey } from '../agent-data/support/agent-client.js';
import { TestReceiver } from '../webhooks/support/receiver.js';

type Json = Record<string, any>;

/**
 * Workspace webhook subscriptions: the quickstart "monitor with events and
 * webhooks" with its exact charges, refunds of failed pushes, deliveries held for credits and
 * released by a grant, and tenant isolation. Real HTTP both ways.
 */
describe('workspace webhooks: subscriptions, metered pushes, held for credits (real HTTP)', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let commands: CommandBus;
  let acme: CreatedTenant;
  let other: CreatedTenant;
  let subscriptionId: string;
  let secret: string;
  let grants = 0;

  before(async () => {
    api = await startTestApi({
      env: { SVC_BOOTSTRAP: 'false', SVC_DEMO_DATA: 'false', SVC_WEBHOOK_ALLOW_PRIVATE: 'true' },
    });
    receiver = await TestReceiver.start();
    commands = api.app.get(CommandBus);
    acme = await commands.execute(new CreateTenantCommand('Acme Ventures'));
    other = await commands.execute(new CreateTenantCommand('Other Capital'));
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  const grant = (tenant: CreatedTenant, cents: number) =>
    commands.execute(
      new GrantCreditsCommand({ keyId: tenant.key.id, creditsCents: cents, reference: `PO-${++grants}` }),
    );
  const drain = () => api.app.get(WebhookDispatchers).get('workspace').drain();
  const balance = async (tenant: CreatedTenant) => (await status(api.url, tenant.key.api_key)).balance_usd as number;

  async function call(key: string, method: string, path: string, body?: unknown) {
    const res = await fetch(
      `${api.url}/api/v1${path}`,
      withKey(key, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    );
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as Json };
  }

  it('monitor with events and webhooks: subscribe (4.00), each push 1.00, signed both ways, the same event as the stream', async () => {
    await grant(acme, 20_00);
    const url = `http://127.0.0.1:${receiver.port}/acme`;
    const created = await call(acme.key.api_key, 'POST', '/workspace/webhooks/subscriptions', {
      url,
      events: ['workspace.company.added', 'workspace.memo.updated'],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.headers.get('x-credits-charged'), '4.00');
    subscriptionId = created.body.data.id;
    assert.match(subscriptionId, /^sub_/);
    secret = created.body.data.secret;
    assert.ok(typeof secret === 'string' && secret.length >= 32, 'a generated secret is shown once');
    assert.equal(created.body.data.held_for_credits, 0);
    receiver.endpoint('/acme', secret);

    const listed = await call(acme.key.api_key, 'GET', '/workspace/webhooks/subscriptions');
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('x-credits-charged'), null, 'managing subscriptions is not metered');
    assert.deepEqual(
      listed.body.data.data.map((s: Json) => [s.id, s.active, s.held_for_credits, 'secret' in s]),
      [[subscriptionId, true, 0, false]],
    );

    const added = await call(acme.key.api_key, 'POST', '/workspace/companies', {
      name: 'Zeta Robotics',
      domain: 'zeta-robotics.example',
    });
    assert.equal(added.status, 201);
    await drain();
    const pushes = receiver.at('/acme');
    assert.equal(pushes.length, 1);
    const push = pushes[0]!;
    assert.equal(push.signatureValid, true, 'X-Service-Signature with the generated secret');
    new Webhook(Buffer.from(secret, 'utf8').toString('base64')).verify(push.raw.toString('utf8'), {
      'webhook-id': String(push.headers['webhook-id']),
      'webhook-timestamp': String(push.headers['webhook-timestamp']),
      'webhook-signature': String(push.headers['webhook-signature']),
    });
    assert.equal(push.body.type, 'workspace.company.added');
    assert.equal(push.body.data.company_id, added.body.data.id);

    const events = await call(acme.key.api_key, 'GET', '/workspace/events?types=workspace.company.added');
    assert.equal(events.headers.get('x-credits-charged'), '2.00');
    assert.equal(events.body.data.data[0].id, push.body.id, 'the push and the stream name one event alike');
    assert.deepEqual(events.body.data.data[0].data, push.body.data);

    // 20 - 4 (subscribe) - 6 (company) - 1 (push) - 2 (events)
    assert.equal(await balance(acme), 7);
    const ledger = (await status(api.url, acme.key.api_key)).recent_ledger as Json[];
    assert.ok(
      ledger.some((e) => e.meter === 'deliver.workspace.webhook'),
      'the push is in the tenant’s ledger',
    );

    const deliveries = await call(acme.key.api_key, 'GET', '/workspace/webhooks/deliveries');
    assert.equal(deliveries.status, 200);
    assert.equal(deliveries.headers.get('x-credits-charged'), null);
    const [delivery] = deliveries.body.data.data;
    assert.equal(delivery.state, 'succeeded');
    assert.equal(delivery.webhook_id, subscriptionId);
    assert.equal(delivery.attempts.length, 1);
    assert.equal(delivery.attempts[0].status_code, 200);
  });

  it('a failed push is refunded: the tenant pays for successful deliveries only', async () => {
    receiver.reply('/acme', () => ({ status: 500, body: 'down' }));
    await grant(acme, 20_00);
    const company = await firstCompany();
    const before = await balance(acme);
    const memo = await call(acme.key.api_key, 'PATCH', `/workspace/companies/${company}/memo`, {
      body: '# Thesis',
    });
    assert.equal(memo.status, 200);
    await drain();
    assert.equal(receiver.at('/acme').length, 2, 'the push was made');
    const deliveries = await call(
      acme.key.api_key,
      'GET',
      `/workspace/webhooks/deliveries?subscription_id=${subscriptionId}`,
    );
    const failed = deliveries.body.data.data.find((d: Json) => d.event_type === 'workspace.memo.updated');
    assert.equal(failed.state, 'pending');
    assert.equal(failed.attempts[0].status_code, 500);
    assert.ok(failed.next_attempt_at, 'retried on the schedule');
    // Only the memo (6.00): the push was charged and refunded.
    assert.equal(await balance(acme), before - 6);
    const st = await status(api.url, acme.key.api_key);
    assert.equal(st.refunded_usd, 1);
    receiver.reply('/acme', () => ({ status: 200, body: 'ok' }));
  });

  it('held for credits: a push the balance cannot pay waits (no attempt, no retry), then goes out once after a grant', async () => {
    const tenant: CreatedTenant = await commands.execute(new CreateTenantCommand('Held Partners'));
    await grant(tenant, 10_00);
    const created = await call(tenant.key.api_key, 'POST', '/workspace/webhooks/subscriptions', {
      url: `http://127.0.0.1:${receiver.port}/held`,
      events: ['workspace.company.added'],
      secret: 'held-partners-secret-0123456789',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.data.secret, undefined, 'a given secret is never returned');
    receiver.endpoint('/held', 'held-partners-secret-0123456789');
    // 10 - 4 = 6: the company takes the rest, nothing is left for its push.
    assert.equal(await balance(tenant), 6);
    const added = await call(tenant.key.api_key, 'POST', '/workspace/companies', {
      name: 'Held Co',
      domain: 'held.example',
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal(await balance(tenant), 0);
    await drain();
    await drain();
    assert.equal(receiver.at('/held').length, 0);
    const deliveries = await call(tenant.key.api_key, 'GET', '/workspace/webhooks/deliveries');
    const [held] = deliveries.body.data.data;
    assert.equal(held.state, 'held');
    assert.equal(held.attempts.length, 0, 'a hold is not an attempt');
    assert.equal(held.next_attempt_at, null, 'out of the retry schedule');
    const subs = await call(tenant.key.api_key, 'GET', '/workspace/webhooks/subscriptions');
    assert.equal(subs.body.data.data[0].held_for_credits, 1);

    await grant(tenant, 5_00);
    await drain();
    assert.equal(receiver.at('/held').length, 1, 'sent once credits arrived');
    await drain();
    assert.equal(receiver.at('/held').length, 1, 'and only once');
    const after = await call(tenant.key.api_key, 'GET', '/workspace/webhooks/deliveries');
    assert.equal(after.body.data.data[0].state, 'succeeded');
    assert.equal(after.body.data.data[0].attempts.length, 1);
    const subsAfter = await call(tenant.key.api_key, 'GET', '/workspace/webhooks/subscriptions');
    assert.equal(subsAfter.body.data.data[0].held_for_credits, 0);
    assert.equal(await balance(tenant), 4);
  });

  it('another tenant’s subscription answers 404 like one that never existed; a self-serve key gets 403 everywhere', async () => {
    for (const id of [subscriptionId, 'sub_01NEVEREXISTED000000000000']) {
      const del = await call(other.key.api_key, 'DELETE', `/workspace/webhooks/subscriptions/${id}`);
      assert.equal(del.status, 404);
      assert.equal(del.body.code, 'WEBHOOK_NOT_FOUND');
      const list = await call(other.key.api_key, 'GET', `/workspace/webhooks/deliveries?subscription_id=${id}`);
      assert.equal(list.status, 404);
      assert.equal(list.body.code, 'WEBHOOK_NOT_FOUND');
    }
    assert.deepEqual((await call(other.key.api_key, 'GET', '/workspace/webhooks/subscriptions')).body.data.data, []);
    assert.deepEqual((await call(other.key.api_key, 'GET', '/workspace/webhooks/deliveries')).body.data.data, []);

    const selfServe = await pay(api.url);
    for (const [method, path] of [
      ['POST', '/workspace/webhooks/subscriptions'],
      ['GET', '/workspace/webhooks/subscriptions'],
      ['DELETE', `/workspace/webhooks/subscriptions/${subscriptionId}`],
      ['GET', '/workspace/webhooks/deliveries'],
    ] as const) {
      const res = await call(
        selfServe.key.api_key,
        method,
        path,
        method === 'POST' ? { url: 'https://a.example', events: ['workspace.deal.created'] } : undefined,
      );
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.code, 'WORKSPACE_REQUIRES_ENTERPRISE');
    }
  });

  it('bad input is 400 and not charged: unknown event type, unknown field, a non-http URL, a short secret', async () => {
    const before = await balance(acme);
    for (const body of [
      { url: 'https://a.example/h', events: ['workspace.nope'] },
      { url: 'https://a.example/h', events: ['workspace.deal.created'], extra: 1 },
      { url: 'ftp://a.example/h', events: ['workspace.deal.created'] },
      { url: 'https://a.example/h', events: ['workspace.deal.created'], secret: 'short' },
      { url: 'https://a.example/h', events: [] },
    ]) {
      const res = await call(acme.key.api_key, 'POST', '/workspace/webhooks/subscriptions', body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
    }
    assert.equal(await balance(acme), before);
  });

  it('a deleted subscription receives nothing more', async () => {
    const del = await call(acme.key.api_key, 'DELETE', `/workspace/webhooks/subscriptions/${subscriptionId}`);
    assert.equal(del.status, 204);
    assert.deepEqual((await call(acme.key.api_key, 'GET', '/workspace/webhooks/subscriptions')).body.data.data, []);
    const pushes = receiver.at('/acme').length;
    await call(acme.key.api_key, 'POST', '/workspace/companies', { name: 'After Co', domain: 'after.example' });
    await drain();
    assert.equal(receiver.at('/acme').length, pushes);
  });

  it('the same attempt tried again (a dispatcher that crashed before recording it) is charged once, settled once', async () => {
    const tenant: CreatedTenant = await commands.execute(new CreateTenantCommand('Retry Partners'));
    await grant(tenant, 3_00);
    const meter = api.app.get(WorkspaceDeliveryMeter);
    const attempt: AttemptContext = {
      channel: 'workspace',
      owner: { kind: 'tenant', id: tenant.tenant_id },
      webhookId: 'sub_01RETRY00000000000000000000',
      deliveryId: 'del_01RETRY00000000000000000000',
      eventId: 'evt_retry',
      eventType: 'workspace.deal.created',
      kind: 'automatic',
      attemptKey: 'del_01RETRY00000000000000000000:a1',
    };
    // Two dispatchers racing for it, then the retry after the crash.
    const decisions = await Promise.all([meter.beforeSend(attempt), meter.beforeSend(attempt)]);
    decisions.push(await meter.beforeSend(attempt));
    assert.deepEqual(decisions, [{ send: true }, { send: true }, { send: true }]);
    assert.equal(await balance(tenant), 2, 'one charge of 1.00');
    const failed = { statusCode: 500, durationMs: 1, error: null, responseBody: null, succeeded: false };
    await meter.afterAttempt(attempt, failed);
    await meter.afterAttempt(attempt, failed);
    assert.equal(await balance(tenant), 3, 'one refund');
    // A new attempt is a new charge.
    await meter.beforeSend({ ...attempt, attemptKey: 'del_01RETRY00000000000000000000:a2' });
    assert.equal(await balance(tenant), 2);
  });

  async function firstCompany(): Promise<string> {
    const list = await call(acme.key.api_key, 'GET', '/workspace/companies');
    return list.body.data.data[0].id;
  }
});
