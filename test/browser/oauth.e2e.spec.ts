import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';
import { axeViolations, browserUnavailable, inFreshContext, seriousViolations } from './support/browser.js';

const skip = browserUnavailable();
describe('OAuth in a real browser (Chromium): register a client, Approve, Deny', { skip }, () => {
  let api: TestApi;
  let receiver: Server;
  let callbackUrl: string;
  before(async () => {
    api = await startTestApi();
    await createUser(api.app, { email: 'ada@example.com', role: 'admin' });
    // The client's redirect target: a page that says it got the answer.
    receiver = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('received'));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
  });
  after(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await api?.close();
  });

  const withPage = (run: (page: Page, context: BrowserContext) => Promise<void>) => inFreshContext(run);

  function authorizeUrl(clientId: string, state: string, verifier: string): string {
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callbackUrl,
      scope: 'read write',
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    return `${api.url}/oauth/authorize?${query.toString()}`;
  }

  it('registers a client on the settings page, then runs the whole flow by clicking Approve, and Deny', () =>
    withPage(async (page) => {
      // Signing in on the way to the settings page.
      await page.goto(`${api.url}/dashboard/settings/oauth-applications`);
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByLabel('Password').fill(TEST_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForLoadState();
      assert.equal(new URL(page.url()).pathname, '/dashboard/settings/oauth-applications');
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);

      await page.getByLabel('Application name').fill('Browser app');
      await page.getByLabel('Redirect URIs (one per line)').fill(callbackUrl);
      await page.getByLabel('Confidential (a server that keeps a secret)').check();
      // PKCE stays required unless an admin ticks the opt-out.
      const skipPkce = page.getByLabel(
        'Allow this confidential client to skip PKCE (only for clients that cannot send code_challenge)',
      );
      assert.equal(await skipPkce.isChecked(), false);
      await page.getByRole('button', { name: 'Register application' }).click();
      await page.waitForLoadState();
      const clientId = await page.getByLabel('Client ID').inputValue();
      const clientSecret = await page.getByLabel('Client secret').inputValue();
      assert.match(clientId, /^oac_/);
      assert.match(clientSecret, /^ocs_/);
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
      await page.getByRole('link', { name: 'Back to OAuth applications' }).click();
      await page.waitForLoadState();
      const row = page.getByRole('row').filter({ hasText: clientId });
      assert.equal(await row.count(), 1);
      assert.match((await row.textContent()) ?? '', /PKCE required/);
      assert.equal(await page.getByRole('button', { name: 'Allow skipping PKCE for Browser app' }).count(), 1);
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
      assert.equal(await page.content().then((c) => c.includes(clientSecret)), false, 'shown once');

      // Approve.
      const verifier = randomBytes(32).toString('base64url');
      await page.goto(authorizeUrl(clientId, 'state-approve', verifier));
      assert.equal(await page.locator('#client-name').textContent(), 'Browser app');
      assert.deepEqual(await page.locator('#scopes li code').allTextContents(), ['read', 'write']);
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
      await page.getByRole('button', { name: 'Approve' }).click();
      await page.waitForURL(/\/callback\?/);
      const approved = new URL(page.url());
      assert.equal(approved.searchParams.get('state'), 'state-approve');
      const code = approved.searchParams.get('code');
      assert.ok(code);
      const token = await fetch(`${api.url}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: callbackUrl,
          code_verifier: verifier,
        }),
      });
      assert.equal(token.status, 200);
      const { access_token } = (await token.json()) as { access_token: string };
      const account = await fetch(`${api.url}/v1/account`, { headers: { authorization: `Bearer ${access_token}` } });
      assert.equal(account.status, 200);

      // Deny.
      await page.goto(authorizeUrl(clientId, 'state-deny', randomBytes(32).toString('base64url')));
      await page.getByRole('button', { name: 'Deny' }).click();
      await page.waitForURL(/\/callback\?/);
      const denied = new URL(page.url());
      assert.equal(denied.searchParams.get('error'), 'access_denied');
      assert.equal(denied.searchParams.get('state'), 'state-deny');
      assert.equal(denied.searchParams.get('code'), null);
    }));
});
