import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';
import { axeViolations, browserUnavailable, launchChromium } from './support/browser.js';

const skip = browserUnavailable();
const APPLICATIONS = '/dashboard/settings/oauth-applications';

/** Issue 29, items 6–10: the dashboard's forms, deliveries, webhook secrets, layout and account basics. */
describe('the dashboard basics in a real browser (Chromium)', { skip }, () => {
  let api: TestApi;
  let browser: Browser;
  before(async () => {
    api = await startTestApi();
    await createUser(api.app, { email: 'admin@example.com', role: 'admin' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await api?.close();
  });

  /** A fresh browser context per test; any CSP refusal the page logs fails the test. */
  async function withPage(
    run: (page: Page, context: BrowserContext) => Promise<void>,
    options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
  ): Promise<void> {
    const context = await browser.newContext(options);
    const refusals: string[] = [];
    try {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refusals.push(message.text());
      });
      await run(page, context);
      assert.deepEqual(refusals, [], 'the pages keep to their own Content-Security-Policy');
    } finally {
      await context.close();
    }
  }

  async function signIn(page: Page, email: string, next: string, password = TEST_PASSWORD): Promise<void> {
    await page.goto(`${api.url}${next}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === next.split('?')[0]);
  }

  async function assertAccessible(page: Page): Promise<void> {
    const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(serious, [], `${page.url()}: no serious or critical axe-core violations`);
  }

  it('item 6: registering and rotating redirect (Post/Redirect/Get); a reload registers nothing and shows no secret', () =>
    withPage(async (page) => {
      await signIn(page, 'admin@example.com', APPLICATIONS);
      await page.getByLabel('Application name').fill('Reload app');
      await page.getByLabel('Redirect URIs (one per line)').fill('https://app.example.com/callback');
      const [answer] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === APPLICATIONS),
        page.getByRole('button', { name: 'Register application' }).click(),
      ]);
      assert.equal(answer.status(), 303, 'the POST answers with a redirect');
      await page.waitForURL((url) => url.pathname === `${APPLICATIONS}/credentials`);
      const secret = await page.getByLabel('Client secret').inputValue();
      assert.match(secret, /^ocs_/);
      await assertAccessible(page);

      await page.reload();
      assert.equal((await page.content()).includes(secret), false, 'the secret is shown once');
      assert.match((await page.getByRole('alert').textContent()) ?? '', /shown once/);
      await assertAccessible(page);
      await page.goto(`${api.url}${APPLICATIONS}`);
      assert.equal(await page.getByRole('row').filter({ hasText: 'Reload app' }).count(), 1, 'registered once');

      await page.getByRole('button', { name: 'Rotate secret of Reload app' }).click();
      await page.waitForURL((url) => url.pathname === `${APPLICATIONS}/credentials`);
      const rotated = await page.getByLabel('Client secret').inputValue();
      assert.match(rotated, /^ocs_/);
      assert.notEqual(rotated, secret);
      await page.reload();
      assert.equal((await page.content()).includes(rotated), false, 'a reload rotates nothing and shows nothing');
    }));
});
