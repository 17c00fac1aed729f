import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';
import { axeViolations, browserUnavailable, inFreshContext, seriousViolations } from './support/browser.js';

const skip = browserUnavailable();

/** What these tests read of the page's globals (the project's TypeScript has no DOM library). */
interface Window {
  document: { cookie: string };
  getComputedStyle(element: unknown): { backgroundColor: string };
}

describe('signing in with a real browser (Chromium)', { skip }, () => {
  let api: TestApi;
  const email = 'Ada@Example.com';
  before(async () => {
    api = await startTestApi();
    await createUser(api.app, { email, role: 'admin' });
  });
  after(async () => {
    await api?.close();
  });

  const withPage = (run: (page: Page, context: BrowserContext) => Promise<void>) => inFreshContext(run);

  async function fillAndSend(page: Page, address: string, password: string): Promise<void> {
    await page.getByLabel('Email').fill(address);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForLoadState();
  }

  it('the sign-in page has no serious or critical accessibility violations (axe-core), nor with an error shown', () =>
    withPage(async (page) => {
      await page.goto(`${api.url}/login`);
      assert.equal(await page.title(), 'Sign in · svc');
      // The stylesheet applies (its hash is in the CSP).
      const button = page.getByRole('button', { name: 'Sign in' });
      assert.equal(
        await button.evaluate((b) => (globalThis as unknown as Window).getComputedStyle(b).backgroundColor),
        'rgb(29, 78, 216)',
      );
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
      await fillAndSend(page, 'nobody@example.com', 'wrong password');
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
    }));

  it('signs in by the labelled fields and lands on the dashboard, with an HttpOnly session cookie', () =>
    withPage(async (page, context) => {
      await page.goto(`${api.url}/login`);
      await fillAndSend(page, 'ada@example.com', TEST_PASSWORD);
      assert.equal(new URL(page.url()).pathname, '/dashboard');
      assert.equal(await page.locator('#signed-in-as').textContent(), `Signed in as ${email} (admin).`);
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
      const session = (await context.cookies()).find((c) => c.name === 'svc_session');
      assert.ok(session);
      assert.deepEqual([session.httpOnly, session.sameSite, session.path], [true, 'Lax', '/']);
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Window).document.cookie),
        '',
        'no script sees the cookies',
      );
    }));

  it('a wrong password shows the error on the sign-in page, the email kept', () =>
    withPage(async (page) => {
      await page.goto(`${api.url}/login`);
      await fillAndSend(page, 'ada@example.com', 'not the password');
      assert.equal(new URL(page.url()).pathname, '/login');
      assert.equal((await page.getByRole('alert').textContent())?.trim(), 'Wrong email or password.');
      assert.equal(await page.getByLabel('Email').inputValue(), 'ada@example.com');
      assert.equal(await page.getByLabel('Password').inputValue(), '');
    }));

  it('signs out with the Sign out button; the dashboard then asks to sign in, and brings the browser back', () =>
    withPage(async (page) => {
      await page.goto(`${api.url}/dashboard`);
      assert.equal(new URL(page.url()).pathname, '/login');
      await fillAndSend(page, 'ada@example.com', TEST_PASSWORD);
      assert.equal(new URL(page.url()).pathname, '/dashboard', 'back where it was going');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForLoadState();
      assert.equal(`${new URL(page.url()).pathname}${new URL(page.url()).search}`, '/login?signed_out=1');
      assert.equal((await page.getByRole('status').textContent())?.trim(), 'You are signed out.');
      await page.goto(`${api.url}/dashboard`);
      assert.equal(`${new URL(page.url()).pathname}${new URL(page.url()).search}`, '/login?next=%2Fdashboard');
    }));
});
