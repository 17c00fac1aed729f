import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { startTestApi, type TestApi } from '../api/support/test-api.js';
import { pay } from '../agent-data/support/agent-client.js';
import { axeViolations, browserUnavailable, seriousViolations, sharedBrowser } from './support/browser.js';

const skip = browserUnavailable();

/** What the test reads of the page (the project's TypeScript has no DOM library). */
interface Box {
  scrollWidth: number;
  clientWidth: number;
}
interface Doc {
  querySelector(selector: string): Box | null;
  documentElement: Box;
}

/** The sandbox checkout page on a phone: nothing overflows, no Cancel once paid. */
describe('the sandbox checkout page in a real browser (Chromium)', { skip }, () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi({ env: { SVC_BOOTSTRAP: 'false' } });
  });
  after(async () => {
    await api?.close();
  });

  /** Whether the card's content (the agent hint's long URL among it) fits the card and the page its viewport. */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const doc = (globalThis as unknown as { document: Doc }).document;
      const card = doc.querySelector('.card')!;
      return {
        card: card.scrollWidth > card.clientWidth,
        page: doc.documentElement.scrollWidth > doc.documentElement.clientWidth,
      };
    });

  it('fits a phone screen before and after paying; the paid page offers no Cancel; axe finds nothing serious', async () => {
    const issued = await pay(api.url);
    const context = await (await sharedBrowser()).newContext({ viewport: { width: 360, height: 740 } });
    try {
      const page = await context.newPage();
      await page.goto(issued.starter_checkout.url);
      assert.ok(await page.getByText('Agents:').isVisible());
      assert.deepEqual(await overflow(page), { card: false, page: false });
      assert.equal(await page.getByRole('link', { name: 'Cancel' }).count(), 1, 'an open session can be cancelled');
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);

      await page.getByRole('button', { name: /^Pay / }).click();
      await page.waitForLoadState();
      await page.goto(issued.starter_checkout.url);
      assert.equal(await page.locator('#status').getAttribute('data-status'), 'complete');
      assert.equal(await page.getByRole('link', { name: 'Cancel' }).count(), 0, 'a paid session offers no Cancel');
      assert.deepEqual(await overflow(page), { card: false, page: false });
      assert.deepEqual(seriousViolations(await axeViolations(page)), []);
    } finally {
      await context.close();
    }
  });
});
