// Child process of the OAuth bench: the real API app on embedded stores, an Enterprise account
// (limits never reached) with a `read` API key, an admin user and a confidential client, and
// `grants` authorizations run through the consent page (scope `read`): their refresh tokens
// and one access token.
//   node dist/test/bench/support/oauth-server.js [grants]   prints {url, key, accessToken, clientId, clientSecret, refreshTokens}
import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as oauth from 'openid-client';
import { startTestApi } from '../../api/support/test-api.js';
import { FormClient } from '../../platform/support/form-client.js';
import { authorize, clientConfig, registerClient } from '../../platform/support/oauth-fixtures.js';
import { createAccountWithKey } from '../../platform/support/platform-fixtures.js';
import { createUser, TEST_PASSWORD } from '../../platform/support/users-fixtures.js';
import { BENCH_LIMITS, failed, isMain, ready } from './bench-kit.js';

/** The server, with `count` (default 20) grants; a smoke run serves it in the bench's process. */
export async function serve([count]: string[]): Promise<void> {
  const grants = Number(count ?? 20);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-oauth-'));
  const api = await startTestApi({
    checkOpenApi: false,
    dataDir,
    env: { ...BENCH_LIMITS },
  });
  const { accountId, key } = await createAccountWithKey(api.app, {
    plan: 'enterprise',
    perMinute: 10_000_000,
    perHour: 10_000_000,
    scopes: ['read'],
  });
  const user = await createUser(api.app, { accountId, email: 'bench@example.com', role: 'admin' });
  const client = await registerClient(api.app, accountId);
  const browser = new FormClient(api.url);
  await browser.signIn(user.email, TEST_PASSWORD);
  const config = await clientConfig(api.url, client.clientId, client.clientSecret);
  const refreshTokens: string[] = [];
  let accessToken = '';
  for (let i = 0; i < grants; i++) {
    const { callback, verifier, state } = await authorize(browser, config, { scope: 'read' });
    const tokens = await oauth.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    refreshTokens.push(tokens.refresh_token!);
    accessToken = tokens.access_token;
  }
  ready(
    { url: api.url, key, accessToken, clientId: client.clientId, clientSecret: client.clientSecret, refreshTokens },
    () => api.close().finally(() => rmSync(dataDir, { recursive: true, force: true })),
  );
}

if (isMain(import.meta.url)) serve(process.argv.slice(2)).catch(failed);
