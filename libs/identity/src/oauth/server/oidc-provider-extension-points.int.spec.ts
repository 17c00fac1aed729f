import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Provider } from 'oidc-provider';
import { SqliteDocumentStore } from '#documents';
import { FakeClock } from '#kernel';
import type { ActiveOAuthClient } from '../clients/oauth-client-lookup.js';
import { hashClientSecret } from '../clients/oauth-client.events.js';
import { type ClientAuthRequest, OAuthClientAdapter } from './oauth-client.adapter.js';
import { oauthCollection, OAuthStorage, tokenHash } from './oauth-storage.js';

const CLIENT_ID = 'oac_01JCANARY0000000000000000';
const SECRET = 'ocs_the-secret';

/**
 * The extension points of oidc-provider that OAuthServer relies on, driven on a bare provider with
 * our adapters (ADR 0091). An upgrade of the library that changes one of them fails here, by name,
 * before the OAuth flows fail for a reason that is harder to read:
 * - the Client adapter's `find` runs inside the request (`Provider.ctx`), with the body's
 *   parameters parsed, and the provider accepts exactly the `client_secret` it returns;
 * - a rotated refresh token is marked through the adapter's `consume`, and found again with
 *   `consumed` set it is answered as a reuse: `grant.revoked` for its grant, every token of it gone.
 */
describe('oidc-provider extension points (the ones OAuthServer uses)', () => {
  let dir: string;
  let documents: SqliteDocumentStore;
  let storage: OAuthStorage;
  let provider: Provider;
  let server: Server;
  let url: string;
  const clock = new FakeClock(new Date());
  const contexts: Array<{ route: unknown; hasParams: boolean }> = [];
  const consumedFound: string[] = [];
  const revoked: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'oidc-canary-'));
    documents = new SqliteDocumentStore({ path: join(dir, 'svc.sqlite') });
    storage = new OAuthStorage(documents, clock);
    const { default: ProviderClass } = await import('oidc-provider');
    const client: ActiveOAuthClient = {
      status: 'active',
      clientId: CLIENT_ID,
      accountId: 'acct_1',
      name: 'Canary',
      redirectUris: ['https://client.example/cb'],
      clientType: 'confidential',
      secretHash: hashClientSecret(SECRET),
      pkce: 'required',
      registeredAt: clock.now().toISOString(),
    };
    const currentRequest = (): ClientAuthRequest | undefined => {
      const ctx = ProviderClass.ctx;
      if (ctx) contexts.push({ route: ctx.oidc?.route, hasParams: Boolean(ctx.oidc?.params) });
      return ctx;
    };
    const jwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' });
    provider = new ProviderClass('http://localhost', {
      adapter: (name: string) =>
        name === 'Client'
          ? new OAuthClientAdapter(async (id) => (id === CLIENT_ID ? client : null), currentRequest)
          : storage.adapterFor(name, { consumedFound: (model) => consumedFound.push(model) }),
      clients: [],
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
      jwks: { keys: [{ ...jwk, alg: 'ES256', use: 'sig' }] } as never,
      clientDefaults: { id_token_signed_response_alg: 'ES256' },
      features: { devInteractions: { enabled: false } },
      rotateRefreshToken: true,
      ttl: { AccessToken: 3600, RefreshToken: 3600, Grant: 3600, IdToken: 3600 },
    });
    provider.on('grant.revoked', (_ctx: unknown, grantId: string) => revoked.push(grantId));
    const callback = provider.callback();
    server = createServer((req, res) => void callback(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await documents?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function refreshTokenOfNewGrant(): Promise<{ value: string; grantId: string }> {
    const client = (await provider.Client.find(CLIENT_ID))!;
    const grant = new provider.Grant({ accountId: 'usr_1', clientId: CLIENT_ID });
    grant.addOIDCScope('openid');
    const grantId = await grant.save();
    const token = new provider.RefreshToken({
      client,
      accountId: 'usr_1',
      grantId,
      scope: 'openid',
      gty: 'authorization_code',
      expiresIn: 3600,
    });
    return { value: await token.save(), grantId };
  }

  type Auth = 'basic' | 'post';
  function tokenRequest(params: Record<string, string>, secret: string, auth: Auth = 'basic') {
    const body = new URLSearchParams(params);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (auth === 'basic')
      headers.authorization = `Basic ${Buffer.from(`${CLIENT_ID}:${encodeURIComponent(secret)}`).toString('base64')}`;
    else {
      body.set('client_id', CLIENT_ID);
      body.set('client_secret', secret);
    }
    return fetch(`${url}/token`, { method: 'POST', headers, body });
  }

  it('finds the client inside the request (Provider.ctx, parameters parsed) and accepts exactly the secret the adapter returns', async () => {
    for (const auth of ['basic', 'post'] as const) {
      contexts.length = 0;
      const right = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'unknown' }, SECRET, auth);
      // Past client authentication: the grant is what is refused.
      assert.equal(right.status, 400, auth);
      assert.equal(((await right.json()) as { error: string }).error, 'invalid_grant');
      assert.ok(
        contexts.some((c) => c.route === 'token' && c.hasParams),
        `the Client adapter saw the token request (${auth}): ${JSON.stringify(contexts)}`,
      );
      for (const wrong of ['ocs_wrong', hashClientSecret(SECRET)]) {
        const refused = await tokenRequest({ grant_type: 'refresh_token', refresh_token: 'unknown' }, wrong, auth);
        assert.equal(refused.status, 401, `${auth} ${wrong}`);
        assert.equal(((await refused.json()) as { error: string }).error, 'invalid_client');
      }
    }
  });

  it("rotates a refresh token through the adapter's consume, and answers its reuse with grant.revoked and every token of the grant gone", async () => {
    const { value, grantId } = await refreshTokenOfNewGrant();
    const first = await tokenRequest({ grant_type: 'refresh_token', refresh_token: value }, SECRET);
    assert.equal(first.status, 200);
    const rotated = ((await first.json()) as { refresh_token: string }).refresh_token;
    assert.ok(rotated && rotated !== value);
    const stored = await documents.collection(oauthCollection('RefreshToken')).get(tokenHash(value));
    assert.equal(typeof stored?.consumed_at, 'number', 'consumed through the adapter (one conditional write)');
    assert.deepEqual(consumedFound, []);

    const reuse = await tokenRequest({ grant_type: 'refresh_token', refresh_token: value }, SECRET);
    assert.equal(reuse.status, 400);
    assert.equal(((await reuse.json()) as { error: string }).error, 'invalid_grant');
    assert.deepEqual(consumedFound, ['RefreshToken'], 'the storage told of the used token');
    assert.deepEqual(revoked, [grantId], 'grant.revoked named the grant');
    assert.equal(await storage.adapterFor('RefreshToken').find(rotated), undefined, 'the rotated token went with it');
  });
});
