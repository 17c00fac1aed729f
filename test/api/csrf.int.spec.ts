import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestApi, type TestApi } from './support/test-api.js';
import { bearer, createAccountWithKey, type TestAccount } from '../platform/support/platform-fixtures.js';
import { csrfToken, FormClient } from '../platform/support/form-client.js';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';

describe('CSRF tokens on the browser forms (and none on the JSON API)', () => {
  let api: TestApi;
  let account: TestAccount;
  before(async () => {
    api = await startTestApi();
    account = await createAccountWithKey(api.app);
    await createUser(api.app, { accountId: account.accountId });
  });
  after(async () => {
    await api?.close();
  });

  const signInFields = { email: 'ada@example.com', password: TEST_PASSWORD };

  it('refuses a sign-in form without its token (403 page), with or without the secret cookie', async () => {
    const browser = new FormClient(api.url);
    await browser.get('/login');
    assert.ok(browser.cookies.has('svc_csrf'));
    for (const client of [browser, new FormClient(api.url)]) {
      const answer = await client.post('/login', signInFields);
      assert.equal(answer.status, 403);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(answer.body, /<title>Form expired · svc<\/title>/);
      assert.match(answer.body, /out of date or was sent from another site/);
      assert.equal(client.cookies.has('svc_session'), false);
    }
  });

  it('refuses a token made for another browser, and a forged one', async () => {
    const mallory = new FormClient(api.url);
    const malloryToken = csrfToken((await mallory.get('/login')).body);
    const victim = new FormClient(api.url);
    const victimToken = csrfToken((await victim.get('/login')).body);
    assert.equal((await victim.post('/login', { ...signInFields, _csrf: malloryToken })).status, 403);
    assert.equal(
      (await victim.post('/login', { ...signInFields, _csrf: `${victimToken.slice(0, -2)}xx` })).status,
      403,
    );
    assert.equal((await victim.post('/login', { ...signInFields, _csrf: '' })).status, 403);
    const honest = await victim.post('/login', { ...signInFields, _csrf: victimToken });
    assert.equal(honest.status, 303, honest.body);
  });

  it('takes the token from an x-csrf-token header too', async () => {
    const browser = new FormClient(api.url);
    const token = csrfToken((await browser.get('/login')).body);
    const answer = await browser.post('/login', signInFields, { 'x-csrf-token': token });
    assert.equal(answer.status, 303, answer.body);
  });

  it('refuses a sign-out without its token: the session goes on', async () => {
    const browser = new FormClient(api.url);
    assert.equal((await browser.signIn('ada@example.com', TEST_PASSWORD)).status, 303);
    const refused = await browser.post('/logout', {});
    assert.equal(refused.status, 403);
    assert.equal((await browser.get('/dashboard')).status, 200);
    const other = csrfToken((await new FormClient(api.url).get('/login')).body);
    assert.equal((await browser.post('/logout', { _csrf: other })).status, 403);
    assert.equal((await browser.get('/dashboard')).status, 200);
  });

  it('renews the CSRF secret at sign-in: a token from before signing in no longer passes', async () => {
    const browser = new FormClient(api.url);
    const before = csrfToken((await browser.get('/login')).body);
    const secretBefore = browser.cookies.get('svc_csrf');
    const signedIn = await browser.post('/login', { ...signInFields, _csrf: before });
    assert.equal(signedIn.status, 303, signedIn.body);
    assert.match(
      signedIn.setCookies.find((l) => l.startsWith('svc_csrf=')) ?? '',
      /^svc_csrf=[^;]+; Path=\/; HttpOnly; SameSite=Lax$/,
      'a new secret, with the same flags',
    );
    assert.notEqual(browser.cookies.get('svc_csrf'), secretBefore);
    assert.equal((await browser.post('/logout', { _csrf: before })).status, 403, 'the token from before');
    assert.equal((await browser.get('/dashboard')).status, 200, 'still signed in');
    const after = csrfToken((await browser.get('/dashboard')).body);
    assert.equal((await browser.post('/logout', { _csrf: after })).status, 303, 'a token made since');
  });

  it('asks no token of the JSON API: Bearer on /v1, x-api-key and anonymous on /api/v1, cookies or not', async () => {
    const browser = new FormClient(api.url);
    await browser.signIn('ada@example.com', TEST_PASSWORD);
    const cookie = [...browser.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const key = await fetch(`${api.url}/v1/api-keys`, {
      method: 'POST',
      headers: { ...bearer(account.key), 'content-type': 'application/json', cookie },
      body: JSON.stringify({ name: 'CI', scopes: ['read'] }),
    });
    assert.equal(key.status, 201, await key.clone().text());
    const agent = await fetch(`${api.url}/api/v1/agents/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    });
    assert.equal(agent.status, 201, await agent.clone().text());
    const issued = (await agent.json()) as { key: { api_key: string } };
    const spare = await fetch(`${api.url}/api/v1/agents/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': issued.key.api_key },
      body: '{}',
    });
    assert.equal(spare.status, 201, await spare.clone().text());
    // And a cookie never authenticates the API.
    const cookieOnly = await fetch(`${api.url}/v1/account`, { headers: { cookie } });
    assert.equal(cookieOnly.status, 401);
  });
});
