import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CommandBus } from '@nestjs/cqrs';
import * as oauth from 'openid-client';
import { FakeClock } from '#kernel';
import { DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { oauthCollection, SetOAuthClientPkceCommand } from '#identity';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { FormClient } from './support/form-client.js';
import {
  authorize,
  clientConfig,
  followAuthorization,
  REDIRECT_URI,
  registerClient,
} from './support/oauth-fixtures.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';
import { bearer } from './support/platform-fixtures.js';

async function grantError(run: () => Promise<unknown>): Promise<{ error: string; status: number }> {
  try {
    await run();
  } catch (e) {
    const err = e as {
      error?: string;
      status?: number;
      response?: Response;
      cause?: Array<{ parameters?: { error?: string } }> | { error?: string };
    };
    // A 401 with a WWW-Authenticate challenge: openid-client puts the challenges in `cause`.
    const challenged = Array.isArray(err.cause) ? err.cause[0]?.parameters?.error : undefined;
    const body = err.response && !err.error ? ((await err.response.json()) as { error?: string }) : undefined;
    return {
      error:
        err.error ??
        body?.error ??
        challenged ??
        (Array.isArray(err.cause) ? undefined : err.cause?.error) ??
        String(e),
      status: err.status ?? err.response?.status ?? 0,
    };
  }
  throw new Error('expected the request to be refused');
}

describe('OAuth 2.0 authorization server (openid-client as the client)', () => {
  let api: TestApi;
  const clock = new FakeClock('2026-03-01T10:00:00.000Z');
  let admin: Awaited<ReturnType<typeof createUser>>;
  let browser: FormClient;
  let client: { clientId: string; clientSecret?: string };
  let config: oauth.Configuration;

  before(async () => {
    api = await startTestApi({ clock });
    admin = await createUser(api.app, { email: 'ada@example.com', role: 'admin' });
    browser = new FormClient(api.url);
    assert.equal((await browser.signIn(admin.email, TEST_PASSWORD)).status, 303);
    client = await registerClient(api.app, admin.accountId);
    config = await clientConfig(api.url, client.clientId, client.clientSecret);
  });
  after(async () => {
    await api?.close();
  });

  const v1 = (token: string, path = '/v1/account', init: RequestInit = {}) =>
    fetch(`${api.url}${path}`, { ...init, headers: { ...bearer(token), ...(init.headers ?? {}) } });

  async function codeFlow(scope = 'read write', cfg = config) {
    const { callback, verifier, state } = await authorize(browser, cfg, { scope });
    return oauth.authorizationCodeGrant(cfg, callback, { pkceCodeVerifier: verifier, expectedState: state });
  }

  it('publishes RFC 8414 metadata whose issuer is the server', async () => {
    const res = await fetch(`${api.url}/.well-known/oauth-authorization-server`);
    assert.equal(res.status, 200);
    const meta = (await res.json()) as Record<string, unknown>;
    assert.equal(meta.issuer, api.url);
    assert.equal(meta.token_endpoint, `${api.url}/oauth/token`);
    assert.equal(meta.authorization_endpoint, `${api.url}/oauth/authorize`);
    assert.equal(meta.revocation_endpoint, `${api.url}/oauth/revoke`);
    assert.deepEqual(meta.code_challenge_methods_supported, ['S256']);
    assert.deepEqual(meta.scopes_supported, [
      'read',
      'write',
      'admin',
      'agents:run',
      'agents:configure',
      'repositories:manage',
    ]);
  });

  it('code + PKCE: redirect with code and state, then exactly the token response; the token works on GET /v1/account', async () => {
    const { callback, verifier, state, consentPage } = await authorize(browser, config, { scope: 'read write' });
    assert.match(consentPage, /Authorize <span id="client-name">Test app<\/span>/);
    assert.match(consentPage, /<code>read<\/code>/);
    assert.match(consentPage, /<button type="submit">Approve<\/button>/);
    assert.match(consentPage, /<button type="submit"[^>]*>Deny<\/button>/);
    assert.equal(callback.origin + callback.pathname, REDIRECT_URI);
    assert.equal(callback.searchParams.get('state'), state);
    const code = callback.searchParams.get('code');
    assert.ok(code);
    // The raw token response: exactly the spec's fields (client_secret_post here).
    const res = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT_URI,
        client_id: client.clientId,
        client_secret: client.clientSecret!,
        code_verifier: verifier!,
      }),
    });
    const body = (await res.json()) as Record<string, unknown>;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_token', 'scope', 'token_type']);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.expires_in, 3600);
    assert.equal(body.scope, 'read write');
    const account = await v1(body.access_token as string);
    assert.equal(account.status, 200);
    assert.equal(((await account.json()) as { id: string }).id, admin.accountId);
    assert.ok(account.headers.get('x-ratelimit-limit'), "the account's rate limit applies");
  });

  it('enforces the granted scopes (403 INSUFFICIENT_SCOPE), and grants a member no scope they lack', async () => {
    const readOnly = await codeFlow('read');
    assert.equal((await v1(readOnly.access_token)).status, 200);
    const create = await v1(readOnly.access_token, '/v1/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x', scopes: ['read'] }),
    });
    assert.equal(create.status, 403);
    assert.equal(((await create.json()) as { code: string }).code, 'INSUFFICIENT_SCOPE');

    const member = await createUser(api.app, { email: 'bob@example.com', role: 'member', accountId: admin.accountId });
    const memberBrowser = new FormClient(api.url);
    await memberBrowser.signIn(member.email, TEST_PASSWORD);
    const { callback, verifier, state, consentPage } = await authorize(memberBrowser, config, { scope: 'read admin' });
    assert.match(consentPage, /id="withheld"[\s\S]*<code>admin<\/code>/);
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal(tokens.scope, 'read');
  });

  it('an admin-scoped OAuth token cannot create API keys (403 OAUTH_TOKEN_CANNOT_CREATE_KEYS): a key would outlive the grant', async () => {
    const tokens = await codeFlow('admin');
    assert.equal(tokens.scope, 'admin');
    const keys = async () =>
      ((await (await v1(tokens.access_token, '/v1/api-keys')).json()) as { data: unknown[] }).data;
    const before = await keys();
    const create = await v1(tokens.access_token, '/v1/api-keys', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'minted', scopes: ['read'] }),
    });
    assert.equal(create.status, 403);
    const body = (await create.json()) as { error: string; code: string; message: string };
    assert.deepEqual([body.error, body.code], ['forbidden', 'OAUTH_TOKEN_CANNOT_CREATE_KEYS']);
    assert.match(body.message, /outlive the grant/);
    assert.deepEqual(await keys(), before, 'no key was made');
  });

  it('Deny sends the browser back with error=access_denied and the state', async () => {
    const { callback, state } = await authorize(browser, config, { scope: 'read', answer: 'deny' });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    assert.equal(callback.searchParams.get('state'), state);
    assert.equal(callback.searchParams.get('code'), null);
  });

  it('sends a browser that is not signed in to /login, and back to the consent page after', async () => {
    const stranger = new FormClient(api.url);
    const url = oauth.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'read',
      state: 's1',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const first = await stranger.get(`${url.pathname}${url.search}`);
    const interaction = new URL(first.headers.get('location')!, api.url).pathname;
    assert.match(interaction, /^\/oauth\/interaction\//);
    const login = await stranger.get(interaction);
    assert.equal(login.status, 303);
    assert.equal(login.headers.get('location'), `/login?next=${encodeURIComponent(interaction)}`);
    const signedIn = await stranger.signIn(admin.email, TEST_PASSWORD, interaction);
    assert.equal(signedIn.headers.get('location'), interaction);
    const consent = await stranger.get(interaction);
    assert.equal(consent.status, 200);
    assert.match(consent.body, /Approve/);
  });

  it('refuses an authorization request with a parameter over its bound (400 invalid_request) and stores nothing', async () => {
    const documents = api.app.get<DocumentStore>(DOCUMENT_STORE);
    const count = async () => {
      let n = 0;
      for (const model of ['Interaction', 'Session'])
        n += (await documents.collection(oauthCollection(model)).find({}, { limit: 1000 })).items.length;
      return n;
    };
    const challenge = await oauth.calculatePKCECodeChallenge(oauth.randomPKCECodeVerifier());
    const request = (params: Record<string, string>) => {
      const url = oauth.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT_URI,
        scope: 'read',
        state: 's',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...params,
      });
      return new FormClient(api.url).get(`${url.pathname}${url.search}`);
    };
    const before = await count();
    for (const [params, message] of [
      [{ state: 'x'.repeat(1025) }, /state must be at most 1024 characters/],
      [{ code_challenge: 'A'.repeat(129) }, /code_challenge must be at most 128 characters/],
      [{ code_challenge: 'A'.repeat(42) }, /code_challenge must be 43 to 128 characters/],
      [{ redirect_uri: `${REDIRECT_URI}?${'x'.repeat(2000)}` }, /redirect_uri must be at most 2000 characters/],
      [{ scope: 'read '.repeat(103) }, /scope must be at most 512 characters/],
      [{ nonce: 'n'.repeat(257) }, /nonce must be at most 256 characters/],
      [{ login_hint: 'h'.repeat(257) }, /login_hint must be at most 256 characters/],
    ] as const) {
      const page = await request(params);
      assert.equal(page.status, 400, JSON.stringify(params).slice(0, 80));
      assert.equal(page.headers.get('location'), null, 'not redirected: nothing is echoed');
      assert.match(page.body, /<code>invalid_request<\/code>/);
      assert.match(page.body, message);
    }
    assert.equal(await count(), before, 'no interaction or session written');
    // At the bound, the request goes on to the consent step.
    assert.equal((await request({ state: 'x'.repeat(1024) })).status, 303);
    assert.equal(await count(), before + 1);
  });

  it('refresh tokens rotate on every use; reusing a rotated one revokes the whole family', async () => {
    const first = await codeFlow();
    const second = await oauth.refreshTokenGrant(config, first.refresh_token!);
    assert.notEqual(second.refresh_token, first.refresh_token);
    assert.notEqual(second.access_token, first.access_token);
    assert.equal(second.expires_in, 3600);
    assert.equal((await v1(second.access_token)).status, 200);
    // The rotated-out token comes back: refused, and every token of the grant stops.
    const reuse = await grantError(() => oauth.refreshTokenGrant(config, first.refresh_token!));
    assert.equal(reuse.error, 'invalid_grant');
    const latest = await grantError(() => oauth.refreshTokenGrant(config, second.refresh_token!));
    assert.equal(latest.error, 'invalid_grant');
    const res = await v1(second.access_token);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'INVALID_TOKEN');
  });

  it("a later authorization of the same client in the same browser leaves the earlier grant's tokens alone", async () => {
    const first = await codeFlow('read');
    const second = await codeFlow('read');
    const refreshed = await oauth.refreshTokenGrant(config, first.refresh_token!);
    assert.equal((await v1(refreshed.access_token)).status, 200);
    assert.equal((await v1(second.access_token)).status, 200);
    assert.ok(await oauth.refreshTokenGrant(config, second.refresh_token!));
  });

  it('a code works once; its second use revokes what the first issued', async () => {
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal((await v1(tokens.access_token)).status, 200);
    const again = await grantError(() =>
      oauth.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    );
    assert.equal(again.error, 'invalid_grant');
    assert.equal((await v1(tokens.access_token)).status, 401);
  });

  it('revocation (RFC 7009) stops a token at once, with every token of its grant', async () => {
    // An access token: it stops at once, and (RFC 7009 §2.1 allows it; oidc-provider does it)
    // so does the refresh token issued with it.
    const tokens = await codeFlow();
    assert.equal((await v1(tokens.access_token)).status, 200);
    // Another client cannot revoke it (the answer is the same 200, the token lives on).
    const stranger = await registerClient(api.app, admin.accountId, { name: 'Stranger' });
    await oauth.tokenRevocation(
      await clientConfig(api.url, stranger.clientId, stranger.clientSecret),
      tokens.access_token,
    );
    assert.equal((await v1(tokens.access_token)).status, 200);
    await oauth.tokenRevocation(config, tokens.access_token);
    const res = await v1(tokens.access_token);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'INVALID_TOKEN');
    assert.equal(
      (await grantError(() => oauth.refreshTokenGrant(config, tokens.refresh_token!))).error,
      'invalid_grant',
    );

    // A refresh token: the grant ends, its access tokens stop.
    const other = await codeFlow();
    const next = await oauth.refreshTokenGrant(config, other.refresh_token!);
    assert.equal((await v1(next.access_token)).status, 200);
    await oauth.tokenRevocation(config, next.refresh_token!);
    assert.equal((await v1(next.access_token)).status, 401);
    assert.equal((await grantError(() => oauth.refreshTokenGrant(config, next.refresh_token!))).error, 'invalid_grant');
  });

  it('refuses a redirect_uri that is not registered (at authorize, and at the token endpoint)', async () => {
    const url = oauth.buildAuthorizationUrl(config, {
      redirect_uri: 'http://127.0.0.1:9/elsewhere',
      scope: 'read',
      state: 's',
      code_challenge: await oauth.calculatePKCECodeChallenge(oauth.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
    });
    const page = await browser.get(`${url.pathname}${url.search}`);
    assert.equal(page.status, 400);
    assert.equal(page.headers.get('location'), null, 'never redirected to an unregistered URI');
    assert.match(page.body, /redirect_uri/);

    const { callback, verifier } = await authorize(browser, config, { scope: 'read' });
    const res = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: 'http://127.0.0.1:9/elsewhere',
        code_verifier: verifier!,
      }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'invalid_grant');
  });

  it('a wrong client secret is 401 invalid_client (basic and post); an unknown grant type is unsupported_grant_type', async () => {
    for (const auth of ['basic', 'post'] as const) {
      const wrong = await clientConfig(api.url, client.clientId, 'ocs_wrong', auth);
      const refused = await grantError(() => oauth.refreshTokenGrant(wrong, 'whatever'));
      assert.deepEqual(refused, { error: 'invalid_client', status: 401 });
    }
    const res = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret!,
      }),
    });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as { error: string }).error, 'unsupported_grant_type');
  });

  it('a code expires after 60 s; an access token after 1 h (401 EXPIRED_TOKEN)', async () => {
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    clock.advance(61_000);
    const late = await grantError(() =>
      oauth.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    );
    assert.equal(late.error, 'invalid_grant');

    const tokens = await codeFlow('read');
    assert.equal((await v1(tokens.access_token)).status, 200);
    clock.advance(3600_000);
    const res = await v1(tokens.access_token);
    assert.equal(res.status, 401);
    assert.equal(((await res.json()) as { code: string }).code, 'EXPIRED_TOKEN');
    // The refresh token (30 days) still gets a fresh access token.
    const fresh = await oauth.refreshTokenGrant(config, tokens.refresh_token!);
    assert.equal((await v1(fresh.access_token)).status, 200);
  });

  it('a confidential client must use PKCE too: refused without code_challenge, served with S256', async () => {
    const refused = await authorize(browser, config, { scope: 'read', pkce: false });
    assert.equal(refused.callback.searchParams.get('error'), 'invalid_request');
    assert.match(refused.callback.searchParams.get('error_description') ?? '', /PKCE/);
    assert.equal(refused.callback.searchParams.get('code'), null);
    // `plain` is no PKCE at all (the challenge is the verifier): refused.
    const verifier43 = oauth.randomPKCECodeVerifier();
    const plain = oauth.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT_URI,
      scope: 'read',
      state: 'p',
      code_challenge: verifier43,
      code_challenge_method: 'plain',
    });
    const answer = new URL((await browser.get(`${plain.pathname}${plain.search}`)).headers.get('location')!);
    assert.equal(answer.searchParams.get('error'), 'invalid_request');
    assert.equal(answer.searchParams.get('code'), null);
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal((await v1(tokens.access_token)).status, 200);
  });

  it("a confidential client registered with PKCE optional follows the spec's flow as written (no code_challenge, client_secret at the token endpoint), and may still use S256", async () => {
    const lax = await registerClient(api.app, admin.accountId, { name: 'Legacy app', pkce: 'optional' });
    // Authentication, item 7, and the /oauth/authorize and /oauth/token rows, to the letter.
    const query = new URLSearchParams({
      client_id: lax.clientId,
      redirect_uri: REDIRECT_URI,
      scope: 'read write',
      state: 'spec-state',
      response_type: 'code',
    });
    const { callback } = await followAuthorization(browser, `/oauth/authorize?${query.toString()}`);
    assert.equal(callback.searchParams.get('error'), null, callback.search);
    assert.equal(callback.searchParams.get('state'), 'spec-state');
    const token = (fields: Record<string, string>) =>
      fetch(`${api.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      });
    const issued = await token({
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      client_id: lax.clientId,
      client_secret: lax.clientSecret!,
      redirect_uri: REDIRECT_URI,
    });
    const body = (await issued.json()) as { access_token: string; refresh_token: string; scope: string };
    assert.equal(issued.status, 200, JSON.stringify(body));
    assert.equal(body.scope, 'read write');
    assert.equal((await v1(body.access_token)).status, 200);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: body.refresh_token,
      client_id: lax.clientId,
      client_secret: lax.clientSecret!,
    });
    assert.equal(refreshed.status, 200);

    // S256 still works, and a code issued for a challenge still needs its verifier.
    const laxConfig = await clientConfig(api.url, lax.clientId, lax.clientSecret);
    const withPkce = await authorize(browser, laxConfig, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(laxConfig, withPkce.callback, {
      pkceCodeVerifier: withPkce.verifier,
      expectedState: withPkce.state,
    });
    assert.equal((await v1(tokens.access_token)).status, 200);
    const challenged = await authorize(browser, laxConfig, { scope: 'read' });
    const noVerifier = await token({
      grant_type: 'authorization_code',
      code: challenged.callback.searchParams.get('code')!,
      client_id: lax.clientId,
      client_secret: lax.clientSecret!,
      redirect_uri: REDIRECT_URI,
    });
    assert.deepEqual(
      [noVerifier.status, ((await noVerifier.json()) as { error: string }).error],
      [400, 'invalid_grant'],
    );

    // `plain` is refused for this client too.
    const plain = new URLSearchParams({
      ...Object.fromEntries(query),
      code_challenge: oauth.randomPKCECodeVerifier(),
      code_challenge_method: 'plain',
    });
    const refused = new URL((await browser.get(`/oauth/authorize?${plain.toString()}`)).headers.get('location')!);
    assert.equal(refused.searchParams.get('error'), 'invalid_request');
    assert.equal(refused.searchParams.get('code'), null);

    // Required again: the next request without code_challenge is refused at once.
    await api.app.get(CommandBus).execute(
      new SetOAuthClientPkceCommand({
        accountId: admin.accountId,
        clientId: lax.clientId,
        pkce: 'required',
        by: 'operator',
      }),
    );
    const again = await followAuthorization(browser, `/oauth/authorize?${query.toString()}`);
    assert.equal(again.callback.searchParams.get('error'), 'invalid_request');
    assert.equal(again.callback.searchParams.get('code'), null);
  });

  it('a public client must use PKCE, and gets tokens without a secret', async () => {
    const pub = await registerClient(api.app, admin.accountId, { public: true, name: 'Public app' });
    assert.equal(pub.clientSecret, undefined);
    const pubConfig = await clientConfig(api.url, pub.clientId, undefined, 'none');
    const refused = await authorize(browser, pubConfig, { scope: 'read', pkce: false });
    assert.equal(refused.callback.searchParams.get('error'), 'invalid_request');
    assert.match(refused.callback.searchParams.get('error_description') ?? '', /code_challenge|PKCE/i);
    const { callback, verifier, state } = await authorize(browser, pubConfig, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(pubConfig, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal((await v1(tokens.access_token)).status, 200);
  });

  it('records grants, issues, rotations, reuse detections and revocations as events', async () => {
    const events = api.app.get<EventStore>(EVENT_STORE);
    const types = new Set<string>();
    for await (const e of events.readAll({ filter: { eventTypePrefixes: ['OAuth'] } })) types.add(e.type);
    for (const t of [
      'OAuthClientRegistered',
      'OAuthGrantApproved',
      'OAuthTokensIssued',
      'OAuthRefreshTokenRotated',
      'OAuthTokenReuseDetected',
      'OAuthTokenRevoked',
      'OAuthGrantRevoked',
    ])
      assert.ok(types.has(t), `${t} recorded (got ${[...types].join(', ')})`);
  });
});

describe('OAuth codes and secrets in the request log', () => {
  let api: TestApi;
  const lines: string[] = [];
  let browser: FormClient;
  let config: oauth.Configuration;
  const logged = () =>
    lines.map((l) => JSON.parse(l) as { req?: { url?: string }; res?: { headers?: { location?: string } } });

  before(async () => {
    api = await startTestApi({ env: { LOG_LEVEL: 'info' }, logStream: { write: (line) => void lines.push(line) } });
    const admin = await createUser(api.app, { email: 'ada@example.com', role: 'admin' });
    browser = new FormClient(api.url);
    assert.equal((await browser.signIn(admin.email, TEST_PASSWORD)).status, 303);
    const client = await registerClient(api.app, admin.accountId);
    config = await clientConfig(api.url, client.clientId, client.clientSecret);
  });
  after(async () => {
    await api?.close();
  });

  it('logs the redirect to the client with its code redacted, and the code nowhere', async () => {
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const code = callback.searchParams.get('code')!;
    assert.ok(code.length >= 20, 'a code was issued');
    // A request's line is written when its response has finished: wait for it.
    const redirects = await waitUntil(
      () => {
        const found = logged()
          .map((l) => l.res?.headers?.location)
          .filter((l): l is string => typeof l === 'string' && l.startsWith(REDIRECT_URI));
        return found.length > 0 ? found : undefined;
      },
      5_000,
      'the logged redirect to the client',
    );
    for (const location of redirects) assert.match(location, /[?&]code=\[redacted\](&|$)/);
    // The code still works: only its logged copy is redacted.
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.ok(tokens.access_token);
    await waitUntil(
      () => (logged().some((l) => l.req?.url === '/oauth/token') ? true : undefined),
      5_000,
      'the token request line',
    );
    assert.equal(lines.filter((l) => l.includes(code)).length, 0, 'the code in no log line');
    assert.equal(lines.filter((l) => l.includes(tokens.access_token)).length, 0, 'the token in no log line');
  });
});
