import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as oauth from 'openid-client';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { FormClient } from './support/form-client.js';
import { authorize, registerClient } from './support/oauth-fixtures.js';
import { bearer } from './support/platform-fixtures.js';
import { createUser, TEST_PASSWORD } from './support/users-fixtures.js';

const ISSUER = 'http://svc.test';

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
