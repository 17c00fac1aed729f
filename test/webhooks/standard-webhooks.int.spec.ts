import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { FakeClock } from '#kernel';
import { verifyWebhookSignature } from '#webhooks';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createAccountWithKey } from '../platform/support/platform-fixtures.js';
import { type Body, client } from './support/http-client.js';
import { type Received, TestReceiver } from './support/receiver.js';
import { MINUTE, platformDispatcher, publishPlatformEvent } from './support/webhook-fixtures.js';

const SECRET = 'standard-secret-0123456789 é';
// Standard Webhooks libraries check webhook-timestamp against the real time (5 minutes either
// way), so this clock starts now; 750 ms into a second shows the timestamp is whole seconds.
const T0 = Math.floor(Date.now() / 1000) * 1000 + 750;

/**
 * Deliveries carry the Standard Webhooks headers beside ours (ADR 0059): checked over real HTTP
 * with the `standardwebhooks` library, as a receiver would, the secret passed base64-encoded.
 */
describe('Standard Webhooks headers on real deliveries', () => {
  let api: TestApi;
  let receiver: TestReceiver;
  const clock = new FakeClock(T0);
  before(async () => {
    api = await startTestApi({ clock, env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await api?.close();
    await receiver?.close();
  });

  const drain = () => platformDispatcher(api.app).drain();
  const standardReceiver = new Webhook(Buffer.from(SECRET, 'utf8').toString('base64'));
  /** What a Standard Webhooks receiver does with the raw body and the headers as received. */
  const verifyStandard = (r: Received) => standardReceiver.verify(r.raw, r.headers as Record<string, string>);

  async function setup(path: string, reply?: Parameters<TestReceiver['endpoint']>[2]) {
    const account = await createAccountWithKey(api.app);
    const call = client(api.url, account.key);
    const url = receiver.endpoint(path, SECRET, reply);
    const created = await call('POST', '/v1/webhooks', { url, events: ['agent.completed'], secret: SECRET });
    assert.equal(created.status, 201, created.text);
    return { account, call, webhookId: created.body.id as string };
  }

  it('given a delivery received over HTTP, when verified with a Standard Webhooks library, then it passes beside X-Service-Signature', async () => {
    clock.set(T0);
    const { account, call, webhookId } = await setup('/standard');
    const sent = await publishPlatformEvent(api.app, account.accountId, 'agent.completed', { clock });
    await drain();

    const got = receiver.at('/standard');
    assert.equal(got.length, 1);
    const r = got[0]!;
    const list = await call('GET', `/v1/webhooks/${webhookId}/deliveries`);
    const d = (list.body.data as Body[])[0]!;
    assert.equal(r.headers['x-service-delivery'], d.id);
    assert.equal(r.headers['webhook-id'], r.headers['x-service-delivery'], 'webhook-id is the delivery id');
    assert.equal(r.headers['webhook-timestamp'], String(Math.floor(T0 / 1000)), 'the attempt second, by the clock');
    assert.match(String(r.headers['webhook-signature']), /^v1,[A-Za-z0-9+/]{43}=$/);
    assert.equal((verifyStandard(r) as { id: string }).id, sent.id, 'verified, and the body is the envelope');

    // Our own headers are as before.
    assert.equal(r.signatureValid, true);
    assert.equal(verifyWebhookSignature(SECRET, r.raw, String(r.headers['x-service-signature'])), true);
    assert.match(String(r.headers['x-service-signature']), /^sha256=[0-9a-f]{64}$/);
    assert.equal(r.headers['x-service-event'], 'agent.completed');
  });

  it('given a failed attempt, when it is retried a minute later, then the retry has the same webhook-id, its own timestamp, and verifies', async () => {
    clock.set(T0);
    let answered = 0;
    const { account } = await setup('/retried', () => ({ status: answered++ === 0 ? 500 : 200 }));
    await publishPlatformEvent(api.app, account.accountId, 'agent.completed', { clock });
    await drain();
    clock.set(T0 + MINUTE);
    await drain();

    const [first, retry] = receiver.at('/retried');
    assert.ok(first && retry, 'two attempts');
    assert.equal(retry.headers['webhook-id'], first.headers['webhook-id']);
    assert.equal(retry.headers['webhook-id'], retry.headers['x-service-delivery']);
    assert.equal(first.headers['webhook-timestamp'], String(Math.floor(T0 / 1000)));
    assert.equal(retry.headers['webhook-timestamp'], String(Math.floor((T0 + MINUTE) / 1000)));
    assert.notEqual(retry.headers['webhook-signature'], first.headers['webhook-signature']);
    assert.doesNotThrow(() => verifyStandard(first));
    assert.doesNotThrow(() => verifyStandard(retry));
    assert.equal(retry.signatureValid, true);
  });
});
