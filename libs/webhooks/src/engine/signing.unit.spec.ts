import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { signWebhookBody, standardWebhookHeaders, verifyWebhookSignature } from './signing.js';

// The library checks `webhook-timestamp` against the real time (5 minutes either way).
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** How a receiver hands one of our secrets to a Standard Webhooks library (ADR 0059). */
const receiverFor = (secret: string) => new Webhook(Buffer.from(secret, 'utf8').toString('base64'));
const noMatch = (error: unknown) =>
  error instanceof WebhookVerificationError && error.message === 'No matching signature found';

describe('Standard Webhooks headers (ADR 0059)', () => {
  const secret = 'whsec-like but any string: é ✓ 0123456789';
  const deliveryId = 'del_01JAAAAAAAAAAAAAAAAAAAAAAA';
  const body = Buffer.from(JSON.stringify({ id: 'evt_1', type: 'agent.completed', data: { name: 'Ünïcødé 🚀' } }));

  it('given a delivery, when its headers are made, then they carry its id, the attempt second and a v1 signature', () => {
    const headers = standardWebhookHeaders(secret, deliveryId, 1_772_359_200, body);
    assert.deepEqual(Object.keys(headers).sort(), ['webhook-id', 'webhook-signature', 'webhook-timestamp']);
    assert.equal(headers['webhook-id'], deliveryId);
    assert.equal(headers['webhook-timestamp'], '1772359200');
    assert.match(headers['webhook-signature']!, /^v1,[A-Za-z0-9+/]{43}=$/, 'base64 of 32 bytes, with padding');
    assert.throws(() => standardWebhookHeaders(secret, deliveryId, 1.5, body), RangeError);
  });

  it('given signed headers, when the standardwebhooks library verifies the body with the base64 secret, then it passes', () => {
    const headers = standardWebhookHeaders(secret, deliveryId, nowSeconds(), body);
    assert.deepEqual(receiverFor(secret).verify(body, headers), JSON.parse(body.toString('utf8')));
    const prefixed = new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
    assert.doesNotThrow(() => prefixed.verify(body, headers), 'the whsec_ prefix is optional');
    const at = new Date(Number(headers['webhook-timestamp']) * 1000);
    assert.equal(receiverFor(secret).sign(deliveryId, at, body), headers['webhook-signature'], 'the same bytes');
  });

  it('given signed headers, when the body, the timestamp or the id is changed, then verification fails', () => {
    const receiver = receiverFor(secret);
    const headers = standardWebhookHeaders(secret, deliveryId, nowSeconds(), body);
    const changedBody = Buffer.from(body.toString('utf8').replace('evt_1', 'evt_2'));
    assert.throws(() => receiver.verify(changedBody, headers), noMatch, 'body changed');
    const later = String(Number(headers['webhook-timestamp']) + 1);
    assert.throws(() => receiver.verify(body, { ...headers, 'webhook-timestamp': later }), noMatch, 'timestamp');
    const otherId = 'del_01JBBBBBBBBBBBBBBBBBBBBBBB';
    assert.throws(() => receiver.verify(body, { ...headers, 'webhook-id': otherId }), noMatch, 'id changed');
    assert.throws(() => receiverFor(`${secret}!`).verify(body, headers), noMatch, 'another secret');
  });

  it('given the same secret and body, when X-Service-Signature is made, then it is still the hex HMAC of the body alone', () => {
    const expected = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    assert.equal(signWebhookBody(secret, body), expected);
    assert.equal(verifyWebhookSignature(secret, body, expected), true);
  });
});
