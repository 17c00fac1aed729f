import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { deliveryStream, type DeliveryAttemptData } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { type Body, client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';
import { MINUTE, platformDispatcher, publishPlatformEvent } from './support/webhook-fixtures.js';

const SECRET = 'delivery-secret-0123456789';
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

/**
 * Delivery, signing, the D12 schedule, disabling, re-enabling, redelivery and test events, over
 * real HTTP to a real local receiver; a FakeClock drives every wait (no sleeping).
 */
describe('webhook deliveries (real receiver, fake clock)', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  const clock = new FakeClock(T0);
  before(async () => {
    // A short send timeout for the held receiver of the timeouts case, yet long enough that a
    // starved CI process does not miss it on the other sends ("not connected … (nothing sent)").
    api = await startTestApi({ clock, env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_WEBHOOK_TIMEOUT_MS: '5000' } });
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  const drain = () => platformDispatcher(api.app).drain();
  async function setup(path: string, events: string[], reply?: Parameters<TestReceiver['endpoint']>[2]) {
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const url = receiver.endpoint(path, SECRET, reply);
    const created = await call('POST', '/v1/webhooks', { url, events, secret: SECRET });
    assert.equal(created.status, 201, created.text);
    return { account, call, webhookId: created.body.id as string };
  }
  const deliveries = async (call: ReturnType<typeof client>, webhookId: string): Promise<Body[]> => {
    const res = await call('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`);
    assert.equal(res.status, 200, res.text);
    return res.body.data as Body[];
  };
  const byDelivery = (path: string) => {
    const out = new Map<string, number>();
    for (const r of receiver.at(path))
      out.set(String(r.headers['x-service-delivery']), (out.get(String(r.headers['x-service-delivery'])) ?? 0) + 1);
    return out;
  };

  it('POSTs the envelope, signed over the exact bytes, with the D13 headers, to subscribed webhooks of the owner only', async () => {
    const { account, call, webhookId } = await setup('/signed', ['agent.completed', 'security.alert']);
    const other = await createAccountWithKey(api.app);
    const sent = await publishPlatformEvent(api.app, account.accountId, 'agent.completed', {
      clock,
      data: {
        agent: { id: 'agt_1', name: 'Reviewer', template: 'review' },
        run: { id: 'run_1', status: 'success', duration_ms: 1200, issues_found: 2 },
      },
      repository: { id: 'repo_1', name: 'acme/api' },
    });
    await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock }); // not subscribed
    await publishPlatformEvent(api.app, other.accountId, 'agent.completed', { clock }); // another account
    await drain();

    const got = receiver.at('/signed');
    assert.equal(got.length, 1);
    const r = got[0]!;
    assert.equal(r.signatureValid, true, 'HMAC-SHA256 of the raw body with the secret, compared in constant time');
    assert.match(String(r.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.equal(r.headers['x-service-event'], 'agent.completed');
    assert.equal(r.headers['content-type'], 'application/json');
    assert.ok(String(r.headers['user-agent']).length > 0);
    const { position: _position, ...envelope } = sent;
    assert.deepEqual(JSON.parse(r.raw.toString('utf8')), envelope, 'the body is the event envelope');

    const list = await deliveries(call, webhookId);
    assert.equal(list.length, 1);
    const d = list[0]!;
    assert.equal(r.headers['x-service-delivery'], d.id);
    assert.match(d.id, /^del_[0-9A-Z]{26}$/);
    assert.equal(d.event_id, sent.id);
    assert.equal(d.event_type, 'agent.completed');
    assert.equal(d.state, 'succeeded');
    assert.equal(d.next_attempt_at, null);
    assert.equal(d.attempts.length, 1);
    assert.deepEqual(
      { ...d.attempts[0], duration_ms: 0 },
      {
        number: 1,
        manual: false,
        attempted_at: clock.now().toISOString(),
        duration_ms: 0,
        status_code: 200,
        error: null,
        response_body: 'ok',
        outcome: 'succeeded',
      },
    );

    // Restarted drains and new passes send nothing twice.
    await drain();
    assert.equal(receiver.at('/signed').length, 1);
  });

  it('retries at +1, +5, +30 and +120 minutes, then the fifth failure disables the webhook and cancels its other retries', async () => {
    clock.set(T0 + 1000 * MINUTE);
    const start = clock.now().getTime();
    const at = (ms: number) => clock.set(start + ms);
    const { account, call, webhookId } = await setup('/failing', ['agent.failed'], () => ({
      status: 500,
      body: 'x'.repeat(3000),
    }));
    const a = await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    await drain();
    at(30_000);
    const b = await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    await drain();
    const [dB, dA] = await deliveries(call, webhookId);
    assert.equal(dA!.event_id, a.id);
    assert.equal(dB!.event_id, b.id);
    const counts = () => [byDelivery('/failing').get(dA!.id) ?? 0, byDelivery('/failing').get(dB!.id) ?? 0];
    assert.deepEqual(counts(), [1, 1]);

    // A: attempts at 0, 1, 6, 36, 156 min; B the same 30 s later. Never early, never twice.
    const schedule = [1, 6, 36, 156];
    for (let i = 0; i < schedule.length; i++) {
      at(schedule[i]! * MINUTE - 1);
      await drain();
      assert.deepEqual(counts(), [i + 1, i + 1], `nothing before minute ${schedule[i]}`);
      at(schedule[i]! * MINUTE);
      await drain();
      assert.deepEqual(counts(), [i + 2, i + 1], `A's attempt ${i + 2} at minute ${schedule[i]}`);
      if (i < schedule.length - 1) {
        at(schedule[i]! * MINUTE + 30_000);
        await drain();
        assert.deepEqual(counts(), [i + 2, i + 2], `B's attempt ${i + 2}`);
      }
    }
    // A's fifth failure disabled the webhook: B's fifth attempt (due at 156.5 min) never comes.
    const webhook = await call('GET', `/v1/webhooks/${webhookId}`);
    assert.equal(webhook.body.active, false);
    assert.equal(webhook.body.disabled_reason, 'delivery_failed');
    assert.equal(webhook.body.failure_count, 9);
    at(10 * 60 * MINUTE);
    await drain();
    assert.deepEqual(counts(), [5, 4]);

    const after = await deliveries(call, webhookId);
    const A = after.find((d) => d.id === dA!.id)!;
    const B = after.find((d) => d.id === dB!.id)!;
    assert.equal(A.state, 'failed');
    assert.equal(A.next_attempt_at, null);
    assert.deepEqual(
      A.attempts.map((x: Body) => x.attempted_at),
      [0, 1, 6, 36, 156].map((m) => new Date(start + m * MINUTE).toISOString()),
    );
    assert.ok(
      A.attempts.every((x: Body) => x.status_code === 500 && x.outcome === 'failed' && x.response_body.length === 2048),
    );
    assert.equal(B.state, 'cancelled');
    assert.equal(B.next_attempt_at, null);
    assert.equal(B.attempts.length, 4);

    // Every attempt is an event of the delivery's stream.
    const store = api.app.get<EventStore>(EVENT_STORE);
    const recorded: DeliveryAttemptData[] = [];
    for await (const e of store.readStream(deliveryStream(dA!.id))) recorded.push(e.data as DeliveryAttemptData);
    assert.deepEqual(
      recorded.map((x) => [x.automatic, x.status_code, x.final]),
      [
        [1, 500, null],
        [2, 500, null],
        [3, 500, null],
        [4, 500, null],
        [5, 500, 'exhausted'],
      ],
    );
    assert.ok(recorded.every((x) => typeof x.duration_ms === 'number' && x.response_body?.length === 2048));

    // Disabled: new events make no delivery.
    await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    await drain();
    assert.equal((await deliveries(call, webhookId)).length, 2);

    // Re-enabling resets the failure count: one more failure does not disable it, the next
    // event's own five do.
    const reEnabled = await call('PATCH', `/v1/webhooks/${webhookId}`, { active: true });
    assert.equal(reEnabled.body.active, true);
    assert.equal(reEnabled.body.failure_count, 0);
    const c = await publishPlatformEvent(api.app, account.accountId, 'agent.failed', { clock });
    await drain();
    const webhookNow = (await call('GET', `/v1/webhooks/${webhookId}`)).body;
    assert.equal(webhookNow.active, true);
    assert.equal(webhookNow.failure_count, 1);
    const dC = (await deliveries(call, webhookId)).find((d) => d.event_id === c.id)!;
    assert.equal(dC.state, 'pending');
    assert.equal(dC.next_attempt_at, new Date(clock.now().getTime() + MINUTE).toISOString());
    // The cancelled delivery stays cancelled.
    assert.equal((await deliveries(call, webhookId)).find((d) => d.id === dB!.id)!.state, 'cancelled');
  });

  it('410 Gone disables at once and stops the other retries', async () => {
    const { account, call, webhookId } = await setup('/gone', ['repository.connected', 'repository.analyzed'], (r) =>
      r.body.type === 'repository.analyzed' ? { status: 410 } : { status: 503 },
    );
    await publishPlatformEvent(api.app, account.accountId, 'repository.connected', { clock });
    await drain();
    const pending = (await deliveries(call, webhookId))[0]!;
    assert.equal(pending.state, 'pending');
    clock.advance(1000);
    await publishPlatformEvent(api.app, account.accountId, 'repository.analyzed', { clock });
    await drain();
    const webhook = (await call('GET', `/v1/webhooks/${webhookId}`)).body;
    assert.equal(webhook.active, false);
    assert.equal(webhook.disabled_reason, 'gone');
    const list = await deliveries(call, webhookId);
    assert.deepEqual(
      list.map((d) => [d.event_type, d.state, d.attempts.length]),
      [
        ['repository.analyzed', 'failed', 1],
        ['repository.connected', 'cancelled', 1],
      ],
    );
    clock.advance(3 * 60 * MINUTE);
    await drain();
    assert.equal(receiver.at('/gone').length, 2);
  });

  it('timeouts, redirects and refused connections are failures', async () => {
    const { account, call, webhookId } = await setup('/odd', ['approval.requested', 'approval.approved'], (r) =>
      r.body.type === 'approval.requested'
        ? { status: 302, headers: { location: `http://127.0.0.1:${receiver.port}/signed` } }
        : { status: 200, hold: true },
    );
    const before = receiver.at('/signed').length;
    await publishPlatformEvent(api.app, account.accountId, 'approval.requested', { clock });
    await publishPlatformEvent(api.app, account.accountId, 'approval.approved', { clock });
    await drain();
    receiver.release();
    const list = await deliveries(call, webhookId);
    const redirect = list.find((d) => d.event_type === 'approval.requested')!;
    assert.equal(redirect.state, 'pending');
    assert.equal(redirect.attempts[0].status_code, 302);
    assert.equal(redirect.attempts[0].error, 'redirect_not_followed');
    assert.equal(receiver.at('/signed').length, before, 'the redirect was not followed');
    const slow = list.find((d) => d.event_type === 'approval.approved')!;
    assert.equal(slow.state, 'pending');
    assert.equal(slow.attempts[0].status_code, null);
    assert.equal(
      slow.attempts[0].error,
      'timeout: no response within 5000 ms',
      'connected and sent: the receiver held it',
    );

    const refused = await TestReceiver.start();
    const url = refused.endpoint('/x', SECRET);
    await refused.close();
    assert.equal((await call('PATCH', `/v1/webhooks/${webhookId}`, { url })).status, 200);
    clock.advance(MINUTE);
    await drain();
    const again = (await deliveries(call, webhookId)).find((d) => d.event_type === 'approval.approved')!;
    assert.equal(again.attempts.length, 2);
    assert.equal(again.attempts[1].error, 'connection_refused');
  });

  it('redeliver sends the same delivery again now; manual attempts never count toward disabling', async () => {
    let status = 500;
    const { account, call, webhookId } = await setup('/redeliver', ['security.alert'], () => ({ status }));
    await publishPlatformEvent(api.app, account.accountId, 'security.alert', { clock });
    await drain();
    const d = (await deliveries(call, webhookId))[0]!;
    for (const m of [1, 5, 30]) {
      clock.advance(m * MINUTE);
      await drain();
    }
    assert.equal((await deliveries(call, webhookId))[0]!.attempts.length, 4);
    // Three failed redeliveries: the webhook stays active and the schedule is untouched.
    for (let i = 0; i < 3; i++) {
      const asked = await call('POST', `/v1/webhooks/${webhookId}/deliveries/${d.id}/redeliver`);
      assert.equal(asked.status, 202, asked.text);
      assert.equal(asked.body.redelivery_pending, true);
      assert.equal(asked.body.next_attempt_at, clock.now().toISOString(), 'due now');
      await drain();
    }
    let now = (await deliveries(call, webhookId))[0]!;
    assert.deepEqual(
      now.attempts.map((x: Body) => x.manual),
      [false, false, false, false, true, true, true],
    );
    assert.equal(now.state, 'pending');
    assert.equal((await call('GET', `/v1/webhooks/${webhookId}`)).body.active, true);
    const sameBytes = receiver.at('/redeliver');
    assert.ok(
      sameBytes.every(
        (r) => r.raw.equals(sameBytes[0]!.raw) && r.headers['x-service-delivery'] === d.id && r.signatureValid,
      ),
    );
    // The fifth automatic attempt (2 h after the fourth) is still the one that disables.
    clock.advance(120 * MINUTE);
    await drain();
    assert.equal((await call('GET', `/v1/webhooks/${webhookId}`)).body.active, false);
    // Redelivery works on a disabled webhook too, and a success settles the delivery.
    status = 200;
    assert.equal((await call('POST', `/v1/webhooks/${webhookId}/deliveries/${d.id}/redeliver`)).status, 202);
    await drain();
    now = (await deliveries(call, webhookId))[0]!;
    assert.equal(now.state, 'succeeded');
    assert.equal(now.attempts.at(-1).outcome, 'succeeded');
    assert.equal(now.redelivery_pending, false);
    assert.equal(
      (await call('POST', `/v1/webhooks/${webhookId}/deliveries/del_00000000000000000000000000/redeliver`)).status,
      404,
    );
  });

  it('an attempt in flight when a redelivery is asked for is still recorded, and the redelivery follows', async () => {
    let first = true;
    const { account, call, webhookId } = await setup('/inflight', ['repository.analyzed'], () => {
      const hold = first;
      first = false;
      return { status: 200, hold };
    });
    await publishPlatformEvent(api.app, account.accountId, 'repository.analyzed', { clock });
    // The background dispatcher sends it; the receiver holds the answer.
    await receiver.until(() => receiver.heldCount === 1, 10_000, 'the held first attempt');
    const d = (await deliveries(call, webhookId))[0]!;
    const asked = await call('POST', `/v1/webhooks/${webhookId}/deliveries/${d.id}/redeliver`);
    assert.equal(asked.status, 202);
    receiver.release();
    await drain();
    const after = (await deliveries(call, webhookId))[0]!;
    assert.deepEqual(
      after.attempts.map((a: Body) => [a.number, a.manual, a.outcome]),
      [
        [1, false, 'succeeded'],
        [2, true, 'succeeded'],
      ],
    );
    assert.equal(after.state, 'succeeded');
    assert.equal(after.redelivery_pending, false);
    assert.equal(receiver.at('/inflight').length, 2);
  });

  it('POST /test → 202 and a webhook.test delivery recorded like any other, whatever the subscription', async () => {
    const { call, webhookId } = await setup('/test-event', ['repository.disconnected']);
    const res = await call('POST', `/v1/webhooks/${webhookId}/test`);
    assert.equal(res.status, 202, res.text);
    assert.equal(res.body.event_type, 'webhook.test');
    assert.equal(res.body.state, 'pending');
    await drain();
    const got = receiver.at('/test-event');
    assert.equal(got.length, 1);
    assert.equal(got[0]!.signatureValid, true);
    assert.equal(got[0]!.headers['x-service-event'], 'webhook.test');
    assert.equal(got[0]!.body.type, 'webhook.test');
    assert.match(got[0]!.body.id, /^evt_/);
    const list = await deliveries(call, webhookId);
    assert.equal(list.length, 1);
    assert.equal(list[0]!.id, res.body.id);
    assert.equal(list[0]!.state, 'succeeded');
    await call('PATCH', `/v1/webhooks/${webhookId}`, { active: false });
    const refused = await call('POST', `/v1/webhooks/${webhookId}/test`);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.code, 'WEBHOOK_DISABLED');
  });

  it('lists deliveries newest first, cursor-paginated', async () => {
    const { account, call, webhookId } = await setup('/paged', ['agent.started']);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      ids.push((await publishPlatformEvent(api.app, account.accountId, 'agent.started', { clock })).id);
    }
    await drain();
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Body } = await call(
        'GET',
        `/v1/webhooks/${webhookId}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.data.map((d: Body) => d.event_id));
      cursor = page.body.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, [...ids].reverse());
  });

  it('changes of url and secret apply to the next attempt', async () => {
    const { account, call, webhookId } = await setup('/before', ['agent.issues_found'], () => ({ status: 500 }));
    await publishPlatformEvent(api.app, account.accountId, 'agent.issues_found', { clock });
    await drain();
    const secret2 = 'second-secret-0123456789';
    const url2 = receiver.endpoint('/after', secret2);
    assert.equal((await call('PATCH', `/v1/webhooks/${webhookId}`, { url: url2, secret: secret2 })).status, 200);
    clock.advance(MINUTE);
    await drain();
    assert.equal(receiver.at('/after').length, 1);
    assert.equal(receiver.at('/after')[0]!.signatureValid, true, 'signed with the new secret');
    assert.equal((await deliveries(call, webhookId))[0]!.state, 'succeeded');
  });
});
