import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'openid-client';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { csrfToken, FormClient } from './support/form-client.js';
import { authorize, clientConfig, followAuthorization, REDIRECT_URI } from './support/oauth-fixtures.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

const PAGE = '/dashboard/settings/oauth-applications';

describe('Settings → OAuth applications (pages, CSRF, ownership)', () => {
  let api: TestApi;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let browser: FormClient;

  before(async () => {
    api = await startTestApi();
    admin = await createUser(api.app, { email: 'ada@example.com', role: 'admin' });
    browser = new FormClient(api.url);
    await browser.signIn(admin.email, TEST_PASSWORD);
  });
  after(async () => {
    await api?.close();
  });

  /**
   * Posts the registration form. Registered, the answer is 303 to the credentials page
   * (Post/Redirect/Get), which is read and returned; a refusal is returned as answered.
   */
  async function register(fields: Record<string, string>, as = browser) {
    const page = await as.get(PAGE);
    return shownOnce(await as.post(PAGE, { _csrf: csrfToken(page.body), ...fields }), as);
  }

  async function shownOnce(answer: Awaited<ReturnType<FormClient['post']>>, as = browser) {
    if (answer.status !== 303) return answer;
    assert.equal(answer.headers.get('location'), `${PAGE}/credentials`);
    return as.get(`${PAGE}/credentials`);
  }

  it('sends a visitor who is not signed in to /login and back', async () => {
    const page = await new FormClient(api.url).get(PAGE);
    assert.equal(page.status, 303);
    assert.equal(page.headers.get('location'), `/login?next=${encodeURIComponent(PAGE)}`);
  });

  it('registers a confidential client: id and secret shown once, then listed without the secret; the secret works', async () => {
    const empty = await browser.get(PAGE);
    assert.equal(empty.status, 200);
    assert.match(empty.body, /No OAuth applications yet/);
    assert.match(empty.body, /<label for="redirect_uris">Redirect URIs \(one per line\)<\/label>/);
    const created = await register({
      name: 'Deploy bot',
      redirect_uris: 'http://127.0.0.1:9/callback\r\nhttps://deploy.example/cb',
      client_type: 'confidential',
    });
    assert.equal(created.status, 200, created.body);
    const clientId = /id="client_id" type="text" readonly value="(oac_[0-9A-Z]{26})"/.exec(created.body)?.[1];
    const secret = /id="client_secret" type="text" readonly value="(ocs_[A-Za-z0-9_-]{43})"/.exec(created.body)?.[1];
    assert.ok(clientId && secret, created.body);
    assert.match(created.body, /shown once/);

    const list = await browser.get(PAGE);
    assert.match(list.body, new RegExp(`<code>${clientId}</code>`));
    assert.match(list.body, /<code>https:\/\/deploy.example\/cb<\/code>/);
    assert.ok(!list.body.includes(secret), 'the secret is never shown again');

    const config = await clientConfig(api.url, clientId, secret);
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, 'read');

    // Rotate: a new secret once; the old one is refused at once.
    const rotated = await shownOnce(await browser.post(`${PAGE}/${clientId}/rotate`, { _csrf: csrfToken(list.body) }));
    assert.equal(rotated.status, 200, rotated.body);
    const newSecret = /id="client_secret" type="text" readonly value="(ocs_[A-Za-z0-9_-]{43})"/.exec(rotated.body)?.[1];
    assert.ok(newSecret && newSecret !== secret);
    const old = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token!,
        client_id: clientId,
        client_secret: secret,
      }),
    });
    assert.equal(old.status, 401);
    const fresh = await oauth.refreshTokenGrant(
      await clientConfig(api.url, clientId, newSecret, 'post'),
      tokens.refresh_token!,
    );
    const v1 = () => fetch(`${api.url}/v1/account`, { headers: { authorization: `Bearer ${fresh.access_token}` } });
    assert.equal((await v1()).status, 200);

    // Delete, after a confirmation page: the client and its tokens stop at once.
    const confirm = await browser.get(`${PAGE}/${clientId}/delete`);
    assert.equal(confirm.status, 200);
    assert.match(confirm.body, /Delete Deploy bot\?/);
    const deleted = await browser.post(`${PAGE}/${clientId}/delete`, { _csrf: csrfToken(confirm.body) });
    assert.deepEqual([deleted.status, deleted.headers.get('location')], [303, `${PAGE}?deleted=1`]);
    assert.doesNotMatch((await browser.get(PAGE)).body, new RegExp(clientId));
    assert.equal((await v1()).status, 401);
  });

  it('registers a confidential client that may skip PKCE (ticked, never by default), and requires PKCE of it again', async () => {
    const form = (await browser.get(PAGE)).body.replace(/\s+/g, ' ');
    const checkbox = /<input type="checkbox" id="pkce_optional" name="pkce" value="optional"[^>]*>/.exec(form)?.[0];
    assert.ok(checkbox && !checkbox.includes('checked'), `unticked by default: ${checkbox}`);
    assert.match(
      form,
      /\/>Allow this confidential client to skip PKCE \(only for clients that cannot send code_challenge\)<\/label/,
    );
    const created = await register({
      name: 'Legacy app',
      redirect_uris: REDIRECT_URI,
      client_type: 'confidential',
      pkce: 'optional',
    });
    assert.equal(created.status, 200, created.body);
    const clientId = /id="client_id" type="text" readonly value="(oac_[0-9A-Z]{26})"/.exec(created.body)![1]!;
    const secret = /id="client_secret" type="text" readonly value="(ocs_[A-Za-z0-9_-]{43})"/.exec(created.body)![1]!;
    const row = (body: string) => new RegExp(`<code>${clientId}</code>[\\s\\S]*?</tr>`).exec(body)?.[0] ?? '';
    const list = await browser.get(PAGE);
    assert.match(row(list.body), />PKCE optional \(may skip\)</);
    assert.match(row(list.body), /aria-label="Require PKCE of Legacy app"/);

    // The spec's flow, without code_challenge, then the secret at the token endpoint.
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'read',
      state: 's1',
      response_type: 'code',
    });
    const { callback } = await followAuthorization(browser, `/oauth/authorize?${query.toString()}`);
    const issued = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code') ?? '',
        client_id: clientId,
        client_secret: secret,
        redirect_uri: REDIRECT_URI,
      }),
    });
    assert.equal(issued.status, 200, await issued.clone().text());

    // Required again: the same request is refused.
    const changed = await browser.post(`${PAGE}/${clientId}/pkce`, { _csrf: csrfToken(list.body), pkce: 'required' });
    assert.deepEqual([changed.status, changed.headers.get('location')], [303, `${PAGE}?pkce=required`]);
    const after = await browser.get(`${PAGE}?pkce=required`);
    assert.match(after.body, /The application must now use PKCE\./);
    assert.match(row(after.body), />PKCE required</);
    assert.match(row(after.body), /aria-label="Allow skipping PKCE for Legacy app"/);
    const refused = await followAuthorization(browser, `/oauth/authorize?${query.toString()}`);
    assert.equal(refused.callback.searchParams.get('error'), 'invalid_request');

    // A value that is neither: 400, nothing changed.
    const bad = await browser.post(`${PAGE}/${clientId}/pkce`, { _csrf: csrfToken(after.body), pkce: 'plain' });
    assert.equal(bad.status, 400);
    assert.match(row((await browser.get(PAGE)).body), />PKCE required</);
  });

  it('refuses to let a public client skip PKCE, at registration and after', async () => {
    const refused = await register({
      name: 'SPA',
      redirect_uris: 'https://spa.example/cb',
      client_type: 'public',
      pkce: 'optional',
    });
    assert.equal(refused.status, 422);
    assert.match(refused.body, /PKCE: a public client must always use PKCE/);
    assert.match(refused.body.replace(/\s+/g, ' '), /id="pkce_optional"[^>]*checked/, 'keeps what was ticked');
    assert.doesNotMatch((await browser.get(PAGE)).body, /<td>SPA<\/td>/);

    const created = await register({ name: 'SPA', redirect_uris: 'https://spa.example/cb', client_type: 'public' });
    assert.equal(created.status, 200, created.body);
    const clientId = /value="(oac_[0-9A-Z]{26})"/.exec(created.body)![1]!;
    const list = await browser.get(PAGE);
    assert.doesNotMatch(list.body, /aria-label="Allow skipping PKCE for SPA"/, 'no toggle for a public client');
    const forced = await browser.post(`${PAGE}/${clientId}/pkce`, { _csrf: csrfToken(list.body), pkce: 'optional' });
    assert.equal(forced.status, 409);
  });

  it('shows what is wrong with a registration and keeps what was typed', async () => {
    const refused = await register({ name: 'Bad', redirect_uris: 'http://evil.example/cb', client_type: 'public' });
    assert.equal(refused.status, 422);
    assert.match(refused.body, /role="alert" id="register-error"/);
    assert.match(refused.body, /Redirect URIs: must be https/);
    assert.match(refused.body, /value="Bad"/);
    assert.match(refused.body, /id="type-public"\s+name="client_type"\s+value="public"\s+checked/);
  });

  it('refuses a form without its CSRF token (403)', async () => {
    const refused = await browser.post(PAGE, { name: 'x', redirect_uris: 'https://a.example/cb' });
    assert.equal(refused.status, 403);
  });

  it("another account's user cannot rotate or delete this account's client (404); a member cannot register (403)", async () => {
    const created = await register({
      name: 'Mine',
      redirect_uris: 'https://mine.example/cb',
      client_type: 'confidential',
    });
    const clientId = /value="(oac_[0-9A-Z]{26})"/.exec(created.body)![1]!;
    const other = await createUser(api.app, { email: 'eve@example.com', role: 'admin' });
    const eve = new FormClient(api.url);
    await eve.signIn(other.email, TEST_PASSWORD);
    const token = csrfToken((await eve.get(PAGE)).body);
    assert.equal((await eve.post(`${PAGE}/${clientId}/rotate`, { _csrf: token })).status, 404);
    assert.equal((await eve.post(`${PAGE}/${clientId}/delete`, { _csrf: token })).status, 404);
    assert.equal((await eve.post(`${PAGE}/${clientId}/pkce`, { _csrf: token, pkce: 'optional' })).status, 404);
    assert.equal((await eve.get(`${PAGE}/${clientId}/delete`)).status, 404);
    assert.doesNotMatch((await eve.get(PAGE)).body, new RegExp(clientId));

    const member = await createUser(api.app, { email: 'bob@example.com', role: 'member', accountId: admin.accountId });
    const bob = new FormClient(api.url);
    await bob.signIn(member.email, TEST_PASSWORD);
    const list = await bob.get(PAGE);
    assert.match(list.body, new RegExp(clientId));
    assert.match(list.body, /Only admins of this account/);
    const refused = await bob.post(PAGE, {
      _csrf: csrfToken(list.body),
      name: 'x',
      redirect_uris: 'https://a.example/cb',
    });
    assert.equal(refused.status, 403);
    const toggled = await bob.post(`${PAGE}/${clientId}/pkce`, { _csrf: csrfToken(list.body), pkce: 'optional' });
    assert.equal(toggled.status, 403);
  });
});
