import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'openid-client';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { FakeClock } from '#kernel';
import { oauthCollection } from '#identity';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { FormClient } from './support/form-client.js';
import { authorize, clientConfig, REDIRECT_URI, registerClient } from './support/oauth-fixtures.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

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

describe('the authorization endpoints are limited per client address (SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-11-02T10:00:05.000Z');
  let client: { clientId: string; clientSecret?: string };
  let config: oauth.Configuration;
  let admin: Awaited<ReturnType<typeof createUser>>;
  before(async () => {
    api = await startTestApi({
      clock,
      // One authorization takes four requests: authorize, consent page, approve, resume.
      env: { SVC_OAUTH_AUTHORIZE_LIMIT_PER_MINUTE: '4', SVC_TRUSTED_PROXIES: '127.0.0.1' },
    });
    admin = await createUser(api.app, { email: 'ada@example.com', role: 'admin' });
    client = await registerClient(api.app, admin.accountId);
    config = await clientConfig(api.url, client.clientId, client.clientSecret);
  });
  after(async () => {
    await api?.close();
  });

  const interactions = async () =>
    (
      await api.app
        .get<DocumentStore>(DOCUMENT_STORE)
        .collection(oauthCollection('Interaction'))
        .find({}, { limit: 100 })
    ).items.length;

  it('a flood of anonymous authorization requests from one address gets 429, writing nothing more; another address still authorizes', async () => {
    const flooder = new FormClient(api.url, { 'x-forwarded-for': '198.51.100.7' });
    const url = oauth.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'read',
      state: 'flood',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const before = await interactions();
    const statuses = [];
    let interaction = '';
    for (let i = 0; i < 4; i++) {
      const res = await flooder.get(`${url.pathname}${url.search}`);
      statuses.push(res.status);
      interaction = new URL(res.headers.get('location')!, api.url).pathname;
    }
    assert.deepEqual(statuses, [303, 303, 303, 303]);
    assert.equal(await interactions(), before + 4);
    const refused = await flooder.get(`${url.pathname}${url.search}`);
    assert.equal(refused.status, 429);
    assert.deepEqual(
      [(JSON.parse(refused.body) as { code: string }).code, refused.headers.get('retry-after')],
      ['RATE_LIMIT_EXCEEDED', '55'],
    );
    assert.equal(await interactions(), before + 4, 'the refused request made no interaction');
    // The consent pages share the budget (a page saying so, with Retry-After).
    const page = await flooder.get(interaction);
    assert.equal(page.status, 429);
    assert.equal(page.headers.get('retry-after'), '55');
    // Its token door is a budget of its own: the server still answers (a wrong code, 401 without a secret).
    const token = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '198.51.100.7' },
      body: 'grant_type=authorization_code&code=x&client_id=oac_guessed',
    });
    assert.notEqual(token.status, 429);

    const browser = new FormClient(api.url, { 'x-forwarded-for': '198.51.100.8' });
    assert.equal((await browser.signIn(admin.email, TEST_PASSWORD)).status, 303);
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, 'read');

    clock.advance(60_000);
    assert.equal((await flooder.get(`${url.pathname}${url.search}`)).status, 303, 'the next minute is a new budget');
  });
});
