import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { bearer, createKey } from '../platform/support/platform-fixtures.js';
import { createUser } from '../platform/support/users-fixtures.js';
import { TestReceiver } from '../webhooks/support/receiver.js';
import { platformDispatcher } from '../webhooks/support/webhook-fixtures.js';
import {
  assertAccessible,
  browserUnavailable,
  inFreshContext,
  type PageOptions,
  signIn as signInAt,
} from './support/browser.js';

const skip = browserUnavailable();

/** What the test reads of the page's globals (the project's TypeScript has no DOM library). */
interface Clipboard {
  navigator: { clipboard: { readText(): Promise<string> } };
}
const SECRET = 'a webhook secret of some length';

describe('the dashboard settings in a real browser (Chromium)', { skip }, () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let accountId: string;
  before(async () => {
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_WEBHOOK_TIMEOUT_MS: '5000' } });
    ({ accountId } = await createUser(api.app, { email: 'admin@example.com', role: 'admin' }));
    await createUser(api.app, { email: 'member@example.com', role: 'member', accountId });
    receiver = await TestReceiver.start();
  });
  after(async () => {
    await receiver?.close();
    await api?.close();
  });

  const withPage = (run: (page: Page, context: BrowserContext) => Promise<void>, options?: PageOptions) =>
    inFreshContext(run, options);
  const signIn = (page: Page, email: string, next = '/dashboard/settings/api-keys') =>
    signInAt(page, api.url, email, next);

  async function accountGet(key: string): Promise<number> {
    return (await fetch(`${api.url}/v1/account`, { headers: bearer(key) })).status;
  }

  it('creates a key: its value once, then never again; it works on GET /v1/account; revoked, it gets 401', () =>
    withPage(async (page, context) => {
      await signIn(page, 'admin@example.com');
      assert.equal(await page.title(), 'API keys · svc');
      const nav = page.getByRole('navigation', { name: 'Settings' });
      for (const [label, path] of [
        ['Account', '/dashboard/settings/account'],
        ['API keys', '/dashboard/settings/api-keys'],
        ['Webhooks', '/dashboard/settings/webhooks'],
        ['OAuth applications', '/dashboard/settings/oauth-applications'],
      ])
        assert.equal(await nav.getByRole('link', { name: label }).getAttribute('href'), path);
      assert.equal(await nav.getByRole('link', { name: 'API keys' }).getAttribute('aria-current'), 'page');
      await assertAccessible(page);

      await page.getByLabel('Description').fill('CI deploy');
      for (const scope of ['read', 'write', 'admin', 'agents:run', 'agents:configure', 'repositories:manage'])
        assert.equal(await page.getByLabel(scope, { exact: true }).isEnabled(), true, `${scope}: an admin holds it`);
      await page.getByLabel('read', { exact: true }).check();
      const [answer] = await Promise.all([
        page.waitForResponse((r) => new URL(r.url()).pathname === '/dashboard/settings/api-keys/new-key'),
        page.getByRole('button', { name: 'Create key' }).click(),
      ]);
      assert.equal(answer.headers()['cache-control'], 'no-store');
      assert.equal(new URL(page.url()).pathname, '/dashboard/settings/api-keys/new-key');
      const value = await page.getByLabel('API key').inputValue();
      assert.match(value, /^svc_test_[A-Za-z0-9]{38}$/);
      assert.equal(page.url().includes(value), false, 'never in a URL');
      // The copy button, with script (its hash in this page's CSP): it puts the value on the clipboard.
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied.').waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Clipboard).navigator.clipboard.readText()),
        value,
      );
      await assertAccessible(page);

      // Never again: the same address, and the list.
      await page.reload();
      assert.equal(await page.title(), 'New API key · svc');
      assert.equal((await page.content()).includes(value), false);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /shown once/);
      await page.goto(`${api.url}/dashboard/settings/api-keys`);
      assert.equal((await page.content()).includes(value), false);
      const row = page.getByRole('row').filter({ hasText: 'CI deploy' });
      assert.match((await row.textContent()) ?? '', new RegExp(`${value.slice(0, 12)}`));

      assert.equal(await accountGet(value), 200, 'the key works on GET /v1/account');

      await row.getByRole('link', { name: 'Revoke' }).click();
      await page.waitForURL(/\/revoke$/);
      assert.equal(await page.title(), 'Revoke API key · svc');
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Revoke' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/settings/api-keys');
      assert.equal((await page.getByRole('status').textContent())?.trim(), 'The key is revoked.');
      assert.equal(await page.getByRole('row').filter({ hasText: 'CI deploy' }).getByRole('link').count(), 0);
      assert.equal(await accountGet(value), 401, 'revoked: 401');
    }));

  it('works without JavaScript: the value is a read-only field to select, and no copy button shows', () =>
    withPage(
      async (page) => {
        await signIn(page, 'admin@example.com');
        await page.getByLabel('Description').fill('No script');
        await page.getByLabel('write', { exact: true }).check();
        await page.getByRole('button', { name: 'Create key' }).click();
        await page.waitForURL((url) => url.pathname === '/dashboard/settings/api-keys/new-key');
        const field = page.getByLabel('API key');
        assert.equal(await field.getAttribute('readonly'), '');
        assert.match(await field.inputValue(), /^svc_test_/);
        assert.equal(
          await page.getByRole('button', { name: 'Copy' }).count(),
          0,
          'hidden: not in the accessibility tree',
        );
      },
      { javaScriptEnabled: false },
    ));

  it('a member creates a key with the scopes they hold; admin cannot be ticked, and the admin pages refuse them', () =>
    withPage(async (page) => {
      await signIn(page, 'member@example.com');
      assert.equal(await page.getByLabel('admin', { exact: true }).isDisabled(), true);
      assert.equal(await page.getByLabel('read', { exact: true }).isEnabled(), true);
      assert.equal(await page.getByRole('link', { name: 'Revoke' }).count(), 0, 'no Revoke for members');
      await assertAccessible(page);
      await page.getByLabel('Description').fill('Member key');
      await page.getByLabel('agents:run', { exact: true }).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.waitForURL((url) => url.pathname === '/dashboard/settings/api-keys/new-key');
      assert.equal(await accountGet(await page.getByLabel('API key').inputValue()), 403, 'agents:run only: no read');
      const refused = await page.goto(`${api.url}/dashboard/settings/webhooks`);
      assert.equal(refused?.status(), 403);
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Only the account's admins/);
      await assertAccessible(page);
    }));

  it('adds a webhook to a local receiver, sends a test event, shows it in Recent deliveries with 200, redelivers it', () =>
    withPage(async (page) => {
      const url = receiver.endpoint('/hooks/dashboard', SECRET, () => ({ status: 200, body: 'thanks' }));
      await signIn(page, 'admin@example.com', '/dashboard/settings/webhooks');
      assert.equal(await page.title(), 'Webhooks · svc');
      await assertAccessible(page);
      await page.getByRole('link', { name: 'Add webhook' }).click();
      await page.waitForURL(/\/webhooks\/new$/);
      await assertAccessible(page);
      await page.getByLabel('Payload URL').fill(url);
      await page.getByLabel('Use my own secret').check();
      await page.getByLabel('Secret', { exact: true }).fill(SECRET);
      await page.getByLabel('agent.completed', { exact: true }).check();
      await page.getByLabel('security.alert', { exact: true }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.waitForURL(/\/webhooks\/wh_[A-Za-z0-9]+\?done=added$/);
      const webhookPage = page.url().split('?')[0]!;
      assert.equal((await page.getByRole('status').textContent())?.trim(), 'The webhook is added.');
      await assertAccessible(page);

      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.waitForURL(/done=tested/);
      await platformDispatcher(api.app).drain();
      await receiver.until(() => receiver.at('/hooks/dashboard').length === 1, 10_000, 'the test event');
      const sent = receiver.at('/hooks/dashboard')[0]!;
      assert.equal(sent.signatureValid, true);
      assert.equal(sent.body.type, 'webhook.test');
      const deliveryId = String(sent.headers['x-service-delivery']);

      const delivery = page.locator(`#delivery-${deliveryId}`);
      await waitUntil(
        async () => {
          await page.goto(webhookPage);
          return /succeeded/.test((await delivery.locator('summary').textContent()) ?? '') || undefined;
        },
        10_000,
        'the delivery shown as succeeded',
      );
      const summary = (await delivery.locator('summary').textContent())!.replace(/\s+/g, ' ');
      assert.match(
        summary,
        new RegExp(`webhook\\.test · ${deliveryId} · .+ UTC · succeeded · 1 attempt · 200 · \\d+ ms`),
      );
      await delivery.locator('summary').click();
      const details = (await delivery.textContent())!;
      assert.match(details, /Response code/);
      assert.match(details, new RegExp(`X-Service-Signature: ${String(sent.headers['x-service-signature'])}`));
      assert.match(details, new RegExp(`X-Service-Delivery: ${deliveryId}`));
      assert.match(details, /webhook-signature: v1,/);
      assert.ok(details.includes(sent.raw.toString('utf8')), 'the request body, exactly the bytes sent');
      assert.match(details, /thanks/, 'the response body');
      await assertAccessible(page);

      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await page.waitForURL(/done=redelivered/);
      await platformDispatcher(api.app).drain();
      await receiver.until(() => receiver.at('/hooks/dashboard').length === 2, 10_000, 'the redelivery');
      assert.equal(receiver.at('/hooks/dashboard')[1]!.headers['x-service-delivery'], deliveryId, 'the same delivery');
      await waitUntil(
        async () => {
          await page.goto(webhookPage);
          return /2 attempts/.test((await delivery.locator('summary').textContent()) ?? '') || undefined;
        },
        10_000,
        'the redelivery shown',
      );
      await delivery.locator('summary').click();
      assert.match((await delivery.textContent()) ?? '', /2 \(redelivery\)/);
    }));

  it('edits, disables, enables and deletes a webhook (with a confirmation)', () =>
    withPage(async (page) => {
      const url = receiver.endpoint('/hooks/edit', SECRET);
      await signIn(page, 'admin@example.com', '/dashboard/settings/webhooks/new');
      await page.getByLabel('Payload URL').fill(url);
      await page.getByLabel('Use my own secret').check();
      await page.getByLabel('Secret', { exact: true }).fill('short');
      await page.getByLabel('repository.connected', { exact: true }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Secret: .*16 bytes/);
      assert.equal(await page.getByLabel('Payload URL').inputValue(), url, 'what was typed stays');
      await assertAccessible(page);
      await page.getByLabel('Secret', { exact: true }).fill(SECRET);
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.waitForURL(/done=added$/);

      await page.getByRole('link', { name: 'Edit' }).click();
      await page.waitForURL(/\/edit$/);
      assert.equal(await page.getByLabel('repository.connected', { exact: true }).isChecked(), true);
      await assertAccessible(page);
      await page.getByLabel('repository.connected', { exact: true }).uncheck();
      await page.getByLabel('repository.disconnected', { exact: true }).check();
      await page.getByRole('button', { name: 'Update webhook' }).click();
      await page.waitForURL(/done=updated$/);
      assert.match((await page.locator('dl').first().textContent()) ?? '', /repository\.disconnected/);

      await page.getByRole('button', { name: 'Disable' }).click();
      await page.waitForURL(/done=disabled$/);
      assert.match((await page.locator('dl').first().textContent()) ?? '', /Disabled/);
      await page.getByRole('button', { name: 'Enable' }).click();
      await page.waitForURL(/done=enabled$/);
      assert.match((await page.locator('dl').first().textContent()) ?? '', /Active/);

      await page.getByRole('link', { name: 'Delete' }).click();
      await page.waitForURL(/\/delete$/);
      await assertAccessible(page);
      await page.getByRole('button', { name: 'Delete webhook' }).click();
      await page.waitForURL(/done=deleted$/);
      assert.equal(await page.getByRole('link', { name: url }).count(), 0);
    }));

  it("the account page shows the plan, its limits and this hour's usage", () =>
    withPage(async (page) => {
      const { key } = await createKey(api.app, accountId, { scopes: ['read'] });
      for (let i = 0; i < 3; i++) assert.equal(await accountGet(key), 200);
      await signIn(page, 'member@example.com', '/dashboard/settings/account');
      assert.equal(await page.title(), 'Account · svc');
      assert.equal((await page.locator('#plan').textContent())?.trim(), 'Team');
      const used = Number(/^(\d+) of/.exec((await page.locator('#hour-usage').textContent()) ?? '')?.[1]);
      assert.ok(used >= 3, `this hour's usage counts the requests made (${used})`);
      assert.match((await page.locator('#hour-usage').textContent()) ?? '', /of 10,000$/);
      assert.match((await page.content()) ?? '', /GET \/api\/v1\/billing\/ledger/);
      await assertAccessible(page);
    }));
});
