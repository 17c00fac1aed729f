import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { browserUnavailable, inFreshContext, sharedBrowser, TEST_DISABLED_FEATURES } from './support/browser.js';

const skip = browserUnavailable();

/**
 * The Chromium the browser tests drive is launched as support/browser.ts means it: Chromium
 * honours only the last `--disable-features` switch, so the helper's must keep every feature
 * Playwright's own switch turns off (a playwright-core upgrade that changes its list fails here).
 */
describe('the Chromium of the browser tests', { skip }, () => {
  it("keeps Playwright's disabled features and adds the test's own", () =>
    inFreshContext(async (page) => {
      await page.goto('chrome://version');
      const commandLine = ((await page.locator('#command_line').textContent()) ?? '').trim().split(/\s+/);
      const lists = commandLine
        .filter((s) => s.startsWith('--disable-features='))
        .map((s) => s.slice('--disable-features='.length).split(','));
      assert.ok(lists.length >= 1, 'a --disable-features switch');
      const effective = new Set(lists.at(-1));
      for (const feature of [...lists.flat(), ...TEST_DISABLED_FEATURES])
        assert.ok(effective.has(feature), `${feature} stays disabled`);
    }));

  it("loads no page of the browser's own address bar (the flags still name Chromium's features)", async () => {
    await inFreshContext(async (page) => {
      await page.goto('about:blank');
      const session = await (await sharedBrowser()).newBrowserCDPSession();
      try {
        const { targetInfos } = await session.send('Target.getTargets', { filter: [{}] });
        assert.deepEqual(
          targetInfos.filter((t) => t.url.startsWith('chrome://omnibox')).map((t) => t.url),
          [],
        );
      } finally {
        await session.detach();
      }
    });
  });
});
