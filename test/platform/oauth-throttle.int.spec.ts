import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeClock } from '#kernel';
import { startTestApi, type TestApi } from '../api/support/test-api.js';

/** A token request with a guessed client secret, as an attacker would send it. */
const guess = (api: TestApi, secret: string, headers: Record<string, string> = {}) =>
  fetch(`${api.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: 'x',
      client_id: 'oac_guessed',
      client_secret: secret,
      redirect_uri: 'https://app.example.com/callback',
    }).toString(),
  });

describe('the OAuth endpoints are limited per client address (SVC_OAUTH_LIMIT_PER_MINUTE)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-11-02T10:00:05.000Z');
  before(async () => {
    api = await startTestApi({
      clock,
      env: { SVC_OAUTH_LIMIT_PER_MINUTE: '3', SVC_TRUSTED_PROXIES: '127.0.0.1' },
    });
  });
  after(async () => {
    await api?.close();
  });

  it('answers 429 with the rate-limit body and Retry-After past the limit, before oidc-provider reads the request', async () => {
    const from = { 'x-forwarded-for': '198.51.100.1' };
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await guess(api, `guess-${i}`, from)).status);
    assert.deepEqual(statuses, [401, 401, 401], 'each wrong secret is refused by the server itself');
    const refused = await guess(api, 'guess-3', from);
    assert.equal(refused.status, 429);
    const body = (await refused.json()) as Record<string, unknown>;
    assert.deepEqual(
      [body.error, body.code],
      ['rate_limit_exceeded', 'RATE_LIMIT_EXCEEDED'],
      'the platform rate-limit error',
    );
    assert.equal(typeof body.message, 'string');
    assert.equal(body.retry_after, 55, 'the rest of the minute window');
    assert.equal(refused.headers.get('retry-after'), '55');
    assert.equal(refused.headers.get('x-ratelimit-remaining'), '0');
    // Revocation takes a client secret too: the same budget.
    const revoke = await fetch(`${api.url}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...from },
      body: 'token=x&client_id=oac_guessed&client_secret=guess-4',
    });
    assert.equal(revoke.status, 429);
  });

  it('counts each client address apart, and starts again in the next minute', async () => {
    assert.equal((await guess(api, 'other', { 'x-forwarded-for': '198.51.100.2' })).status, 401);
    assert.equal((await guess(api, 'again', { 'x-forwarded-for': '198.51.100.1' })).status, 429);
    clock.advance(60_000);
    assert.equal((await guess(api, 'later', { 'x-forwarded-for': '198.51.100.1' })).status, 401);
  });

  it('leaves the public endpoints alone (discovery, keys)', async () => {
    for (let i = 0; i < 5; i++) {
      assert.equal(
        (await fetch(`${api.url}/oauth/jwks`, { headers: { 'x-forwarded-for': '198.51.100.1' } })).status,
        200,
      );
    }
  });
});
