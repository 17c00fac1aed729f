import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'openid-client';
import { type Collection, type Doc, DOCUMENT_STORE, type DocumentStore } from '#documents';
import { EVENT_STORE, type EventStore } from '#eventstore';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { FormClient } from './support/form-client.js';
import { authorize, registerClient } from './support/oauth-fixtures.js';
import { bearer } from './support/platform-fixtures.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

const ISSUER = 'http://svc.test';

/**
 * Makes redemptions overlap: the first `n` reads of `collection` on each of `apps` wait until `n`
 * reads were made across them, so every redemption has read the code (or refresh token) before
 * any goes on to use it, the race a loaded server sees. (Unheld, the embedded store answers each
 * request before the next one reads.) Returns the undo.
 */
function holdReads(apps: TestApi[], collection: string, n: number): () => void {
  let reads = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => (release = resolve));
  const undo: Array<() => void> = [];
  for (const api of apps) {
    const store = api.app.get<DocumentStore>(DOCUMENT_STORE);
    const original = store.collection.bind(store);
    store.collection = (<T extends Doc>(name: string) => {
      const handle = original<T>(name);
      if (name !== collection) return handle;
      return Object.assign(Object.create(handle) as Collection<T>, {
        get: async (id: string) => {
          const doc = await handle.get(id);
          if (reads < n && ++reads === n) release();
          if (reads <= n) await allRead;
          return doc;
        },
      });
    }) as DocumentStore['collection'];
    undo.push(() => (store.collection = original));
  }
  return () => undo.forEach((u) => u());
}

/** openid-client pointed at several instances of one service (one issuer, behind a balancer). */
function configFor(authorizeOn: TestApi, tokenOn: TestApi, clientId: string, secret: string): oauth.Configuration {
  const config = new oauth.Configuration(
    {
      issuer: ISSUER,
      authorization_endpoint: `${authorizeOn.url}/oauth/authorize`,
      token_endpoint: `${tokenOn.url}/oauth/token`,
      revocation_endpoint: `${tokenOn.url}/oauth/revoke`,
      authorization_response_iss_parameter_supported: true,
    },
    clientId,
    undefined,
    oauth.ClientSecretBasic(secret),
  );
  oauth.allowInsecureRequests(config);
  return config;
}

describe('OAuth across two API instances on one store, and after a restart', () => {
  let a: TestApi;
  let b: TestApi;
  let restarted: TestApi | undefined;
  let bOpen = true;
  const env = { SVC_PUBLIC_URL: ISSUER };
  before(async () => {
    a = await startTestApi({ env });
    b = await startTestApi({ env, dataDir: a.dataDir });
  });
  after(async () => {
    await restarted?.close();
    if (bOpen) await b?.close();
    await a?.close();
  });

  it('one code, or one refresh token, redeemed at once on both instances: exactly one redemption succeeds; the others are invalid_grant and end the grant, as a reuse does', async () => {
    const user = await createUser(a.app, { email: 'race@example.com', role: 'admin' });
    const client = await registerClient(a.app, user.accountId);
    const browser = new FormClient(a.url);
    await browser.signIn(user.email, TEST_PASSWORD);
    const onA = configFor(a, a, client.clientId, client.clientSecret!);
    const onB = configFor(a, b, client.clientId, client.clientSecret!);
    const refusal = (e: unknown) => ({
      error: (e as { error?: string }).error,
      status: (e as { status?: number }).status,
    });
    /** Eight redemptions at once, alternating instances: the one that succeeded. */
    async function race(redeem: (config: oauth.Configuration) => Promise<oauth.TokenEndpointResponse>) {
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => redeem(i % 2 ? onB : onA)));
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [refusal(o.reason)] : []));
      assert.equal(won.length, 1, `${won.length} of 8 redemptions succeeded`);
      assert.deepEqual(refused, Array(7).fill({ error: 'invalid_grant', status: 400 }));
      return won[0]!;
    }
    async function refused(redeem: () => Promise<unknown>) {
      const outcome = await redeem().then(
        () => undefined,
        (e: unknown) => refusal(e),
      );
      return outcome;
    }
    const reuses = async () => {
      const found: string[] = [];
      for await (const e of a.app
        .get<EventStore>(EVENT_STORE)
        .readAll({ filter: { eventTypePrefixes: ['OAuthTokenReuse'] } }))
        found.push((e.data as { token_type: string }).token_type);
      return found;
    };

    const code = await authorize(browser, onA, { scope: 'read' });
    let undo = holdReads([a, b], 'oauth_authorizationcode', 8);
    const tokens = await race((config) =>
      oauth.authorizationCodeGrant(config, code.callback, {
        pkceCodeVerifier: code.verifier,
        expectedState: code.state,
      }),
    );
    undo();
    // The grant is over: the winner's refresh token no longer works (its access token may have
    // been saved after the losers revoked the grant's tokens: ADR 0076).
    assert.deepEqual(await refused(() => oauth.refreshTokenGrant(onA, tokens.refresh_token!)), {
      error: 'invalid_grant',
      status: 400,
    });

    const next = await authorize(browser, onA, { scope: 'read' });
    const fresh = await oauth.authorizationCodeGrant(onA, next.callback, {
      pkceCodeVerifier: next.verifier,
      expectedState: next.state,
    });
    undo = holdReads([a, b], 'oauth_refreshtoken', 8);
    const rotated = await race((config) => oauth.refreshTokenGrant(config, fresh.refresh_token!));
    undo();
    assert.deepEqual(await refused(() => oauth.refreshTokenGrant(onB, rotated.refresh_token!)), {
      error: 'invalid_grant',
      status: 400,
    });
    assert.equal((await fetch(`${a.url}/v1/account`, { headers: bearer(fresh.access_token) })).status, 401);
    const recorded = await reuses();
    assert.ok(recorded.includes('authorization_code') && recorded.includes('refresh_token'), `reuses: ${recorded}`);
  });

  it('a flow started on one instance finishes on the other; revocation on one stops the token on the other within a second; a restart keeps tokens', async () => {
    const user = await createUser(a.app, { email: 'ada@example.com', role: 'admin' });
    const client = await registerClient(a.app, user.accountId);
    const browser = new FormClient(a.url);
    await browser.signIn(user.email, TEST_PASSWORD);
    // The provider's interaction cookies are signed with keys both instances derive alike.
    const config = configFor(a, b, client.clientId, client.clientSecret!);
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    assert.equal((await fetch(`${a.url}/v1/account`, { headers: bearer(tokens.access_token) })).status, 200);
    assert.equal((await fetch(`${b.url}/v1/account`, { headers: bearer(tokens.access_token) })).status, 200);

    await oauth.tokenRevocation(config, tokens.access_token); // on B
    assert.equal((await fetch(`${b.url}/v1/account`, { headers: bearer(tokens.access_token) })).status, 401);
    await waitUntil(
      async () =>
        (await fetch(`${a.url}/v1/account`, { headers: bearer(tokens.access_token) })).status === 401
          ? true
          : undefined,
      // Within a second (a 50 ms poll); up to five on a starved CI machine.
      5000,
      'A to refuse the revoked token',
    );

    const second = await authorize(browser, config, { scope: 'read' });
    const kept = await oauth.authorizationCodeGrant(config, second.callback, {
      pkceCodeVerifier: second.verifier,
      expectedState: second.state,
    });
    bOpen = false;
    await b.close();
    restarted = await startTestApi({ env, dataDir: a.dataDir });
    assert.equal((await fetch(`${restarted.url}/v1/account`, { headers: bearer(kept.access_token) })).status, 200);
    const refreshed = await oauth.refreshTokenGrant(
      configFor(a, restarted, client.clientId, client.clientSecret!),
      kept.refresh_token!,
    );
    assert.equal((await fetch(`${restarted.url}/v1/account`, { headers: bearer(refreshed.access_token) })).status, 200);
  });
});
