import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { deliveryStream, type DeliveryAttemptData } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { type Body, client } from './support/http-client.js';
import { TestReceiver } from './support/receiver.js';
import { MINUTE, platformDispatcher, publishPlatformEvent } from './support/webhook-fixtures.js';

const SECRET = 'restart-secret-0123456789';
const T0 = Date.parse('2026-04-01T08:00:00.000Z');

/**
 * Pending retries are read-model state: an api stopped mid-schedule and started again on the
 * same data directory resumes at the right times, with no attempt lost and none doubled.
 */
describe('webhook retries across restarts', () => {
  let dataDir: string;
  let receiver: TestReceiver;
  let api: TestApi | undefined;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-webhooks-restart-'));
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const start = async (clockAt: number) => {
    const clock = new FakeClock(T0 + clockAt);
    api = await startTestApi({ clock, dataDir, env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    return { app: api, clock };
  };
  const stop = async () => {
    await api?.close();
    api = undefined;
  };

  it('resumes mid-schedule on time: nothing early, nothing twice, nothing lost', async () => {
    const url = receiver.endpoint('/restart', SECRET, () => ({ status: 500 }));
    let { app, clock } = await start(0);
    const account = await createAccountWithKey(app.app);
    const key = account.key;
    const created = await client(app.url, key)('POST', '/v1/webhooks', {
      url,
      events: ['security.scan_completed'],
      secret: SECRET,
    });
    const webhookId = created.body.id as string;
    await publishPlatformEvent(app.app, account.accountId, 'security.scan_completed', { clock });
    await platformDispatcher(app.app).drain();
    clock.set(T0 + MINUTE);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 2);
    await stop();

    // Down for a while, back before attempt 3 is due (at +6 min).
    ({ app, clock } = await start(2 * MINUTE));
    let call = client(app.url, key);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 2, 'nothing resent on start');
    const pending = ((await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.data as Body[])[0]!;
    assert.equal(pending.state, 'pending');
    assert.equal(pending.next_attempt_at, new Date(T0 + 6 * MINUTE).toISOString());
    clock.set(T0 + 6 * MINUTE - 1);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 2, 'not early');
    clock.set(T0 + 6 * MINUTE);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 3, 'attempt 3 on time');
    await stop();

    // Down past attempt 4's time (+36 min): it fires once at start, and attempt 5 2 h after it.
    const back = 50 * MINUTE;
    ({ app, clock } = await start(back));
    call = client(app.url, key);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 4, 'the overdue attempt fires once after the restart');
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 4);
    clock.set(T0 + back + 120 * MINUTE - 1);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 4);
    clock.set(T0 + back + 120 * MINUTE);
    await platformDispatcher(app.app).drain();
    assert.equal(receiver.at('/restart').length, 5);

    const delivery = ((await call('GET', `/v1/webhooks/${webhookId}/deliveries`)).body.data as Body[])[0]!;
    assert.equal(delivery.state, 'failed');
    assert.deepEqual(
      delivery.attempts.map((a: Body) => a.attempted_at),
      [0, 1, 6, 50, 170].map((m) => new Date(T0 + m * MINUTE).toISOString()),
    );
    assert.equal((await call('GET', `/v1/webhooks/${webhookId}`)).body.active, false);
    const store = app.app.get<EventStore>(EVENT_STORE);
    const automatic: Array<number | null> = [];
    for await (const e of store.readStream(deliveryStream(delivery.id)))
      automatic.push((e.data as DeliveryAttemptData).automatic);
    assert.deepEqual(automatic, [1, 2, 3, 4, 5], 'one recorded attempt per send, in order');
    assert.deepEqual(
      receiver.at('/restart').map((r) => r.headers['x-service-delivery']),
      Array(5).fill(delivery.id),
    );
  });
});
