import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApi, type TestApi, waitUntil } from '../api/support/test-api.js';
import { bearer, createKey } from '../platform/support/platform-fixtures.js';
import { CommandBus } from '@nestjs/cqrs';
import { IssuePasswordResetCommand } from '#identity';
import { PLATFORM_EVENT_MEANINGS } from '#platform';
import { createUser, TEST_PASSWORD } from '../platform/support/users-fixtures.js';
import { SmtpSink } from '../platform/support/smtp-sink.js';
import { TestReceiver } from '../webhooks/support/receiver.js';
import {
  assertAccessible,
  browserUnavailable,
  inFreshContext,
  type PageOptions,
  sharedBrowser,
  signIn as signInAt,
} from './support/browser.js';

const skip = browserUnavailable();
const APPLICATIONS = '/dashboard/settings/oauth-applications';
const SECRET = 'a webhook secret of some length';

/** What the test reads of the page's globals (the project's TypeScript has no DOM library). */
interface Clipboard {
  navigator: { clipboard: { readText(): Promise<string> } };
}

/** The dashboard's forms, deliveries, webhook secrets, layout and account basics. */
describe('the dashboard basics in a real browser (Chromium)', { skip }, () => {
  let api: TestApi;
  let receiver: TestReceiver;
  let accountId: string;
  before(async () => {
    api = await startTestApi({ env: { SVC_WEBHOOK_ALLOW_PRIVATE: 'true', SVC_WEBHOOK_TIMEOUT_MS: '5000' } });
    ({ accountId } = await createUser(api.app, { email: 'admin@example.com', role: 'admin' }));
    receiver = await TestReceiver.start();
  });
  after(async () => {
    receiver?.release();
    await receiver?.close();
    await api?.close();
  });

  /** A webhook made through the API (the form is item 8's). */
  async function addWebhook(path: string): Promise<string> {
    const { key } = await createKey(api.app, accountId, { scopes: ['admin'] });
    const created = await fetch(`${api.url}/v1/webhooks`, {
      method: 'POST',
      headers: { ...bearer(key), 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.endpoint(path, SECRET), events: ['agent.completed'], secret: SECRET }),
    });
    assert.equal(created.status, 201);
    return ((await created.json()) as { id: string }).id;
  }

  const withPage = (run: (page: Page, context: BrowserContext) => Promise<void>, options?: PageOptions) =>
    inFreshContext(run, options);
  const signIn = (page: Page, email: string, next: string, password?: string) =>
    signInAt(page, api.url, email, next, password);

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

  it('item 7: after Redeliver the delivery is expanded with its new attempt (pending, then its outcome); ✓/✗ and the code on each', () =>
    withPage(async (page) => {
      const path = '/hooks/redeliver';
      const webhookId = await addWebhook(path);
      const webhookPage = `/dashboard/settings/webhooks/${webhookId}`;
      await signIn(page, 'admin@example.com', webhookPage);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.waitForURL(/done=tested/);
      await receiver.until(() => receiver.at(path).length === 1, 10_000, 'the test event');
      const deliveryId = String(receiver.at(path)[0]!.headers['x-service-delivery']);
      const delivery = page.locator(`#delivery-${deliveryId}`);
      const summary = async () => ((await delivery.locator('summary').textContent()) ?? '').replace(/\s+/g, ' ');
      await waitUntil(
        async () => {
          await page.goto(`${api.url}${webhookPage}`);
          return /succeeded/.test(await summary()) || undefined;
        },
        10_000,
        'the delivery shown as succeeded',
      );
      assert.match(await summary(), /^ ?✓ webhook\.test · .* · succeeded · 1 attempt · 200 · /, 'GitHub-style marker');
      assert.equal(await delivery.locator('details').getAttribute('open'), null, 'collapsed until asked for');

      // The redelivery is held by the receiver, so the page after the redirect must show it pending.
      receiver.reply(path, () => ({ status: 500, body: 'broken', hold: true }));
      await delivery.locator('summary').click();
      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await page.waitForURL(/done=redelivered/);
      assert.match((await page.getByRole('status').textContent()) ?? '', /new attempt is shown below/);
      assert.equal(await delivery.locator('details').getAttribute('open'), '', 'expanded after the redirect');
      const pending = delivery.getByRole('row').filter({ hasText: '2 (redelivery)' });
      assert.match((await pending.textContent()) ?? '', /pending/);
      assert.equal(await pending.isVisible(), true);
      await assertAccessible(page);

      await receiver.until(() => receiver.heldCount === 1, 10_000, 'the redelivery arrives');
      receiver.release();
      await waitUntil(
        async () => {
          await page.getByRole('link', { name: 'refresh' }).click();
          await page.waitForLoadState();
          return /2 attempts/.test(await summary()) || undefined;
        },
        10_000,
        'the redelivery outcome shown',
      );
      assert.equal(await delivery.locator('details').getAttribute('open'), '', 'still expanded');
      // Once succeeded, the delivery stays so; its marker and code are those of its last attempt.
      assert.match(await summary(), /^ ?✗ webhook\.test · .* · succeeded · 2 attempts · 500 · /);
      const attempt = (await delivery.getByRole('row').filter({ hasText: '2 (redelivery)' }).textContent()) ?? '';
      assert.match(attempt.replace(/\s+/g, ' '), /500 .*✗ failed/);
      await assertAccessible(page);
    }));

  it('item 8: Add webhook offers a generated secret, shown once and copyable, that signs deliveries; each event is described', () =>
    withPage(async (page, context) => {
      const path = '/hooks/generated';
      await signIn(page, 'admin@example.com', '/dashboard/settings/webhooks/new');
      // Each event's meaning beside its checkbox, as its accessible description, from the definitions.
      for (const [type, meaning] of Object.entries(PLATFORM_EVENT_MEANINGS)) {
        const box = page.getByLabel(type, { exact: true });
        assert.equal(await box.getAttribute('aria-describedby'), `event-${type}-meaning`);
        assert.equal(await page.locator(`[id="event-${type}-meaning"]`).textContent(), meaning);
        assert.equal(await page.locator(`[id="event-${type}-meaning"]`).isVisible(), true);
      }
      assert.equal(await page.getByLabel('Generate a secret (recommended)').isChecked(), true, 'the default');
      await assertAccessible(page);
      await page.getByLabel('Payload URL').fill(receiver.endpoint(path, 'not yet known'));
      await page.getByLabel('agent.completed', { exact: true }).check();
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.waitForURL(/\/webhooks\/wh_[A-Za-z0-9]+\?done=added$/);
      const secret = await page.getByLabel('Secret', { exact: true }).inputValue();
      assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(page.url().includes(secret), false, 'never in a URL');
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
      await page.getByRole('button', { name: 'Copy' }).click();
      await page.getByText('Copied.').waitFor();
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Clipboard).navigator.clipboard.readText()),
        secret,
      );
      await assertAccessible(page);

      // Once: a reload shows the webhook, not the secret.
      await page.reload();
      assert.equal((await page.content()).includes(secret), false, 'shown once');

      // It is the secret deliveries are signed with.
      receiver.endpoint(path, secret);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.waitForURL(/done=tested/);
      await receiver.until(() => receiver.at(path).length === 1, 10_000, 'the test event');
      assert.equal(receiver.at(path)[0]!.signatureValid, true);

      // Editing keeps it unless a new one is asked for; a typed secret is never dropped silently.
      await page.getByRole('link', { name: 'Edit' }).click();
      await page.waitForURL(/\/edit$/);
      assert.equal(await page.getByLabel('Keep the current secret').isChecked(), true);
      await page.getByLabel('Secret', { exact: true }).fill(SECRET);
      await page.getByRole('button', { name: 'Update webhook' }).click();
      assert.match((await page.getByRole('alert').textContent()) ?? '', /Use my own secret/);
      await assertAccessible(page);
      await page.getByLabel('Generate a new secret').check();
      await page.getByRole('button', { name: 'Update webhook' }).click();
      await page.waitForURL(/done=updated$/);
      const rotated = await page.getByLabel('Secret', { exact: true }).inputValue();
      assert.match(rotated, /^whsec_/);
      assert.notEqual(rotated, secret);
    }));

  it('item 8: without JavaScript the generated secret is a read-only field to select, and no Copy button shows', () =>
    withPage(
      async (page) => {
        await signIn(page, 'admin@example.com', '/dashboard/settings/webhooks/new');
        await page.getByLabel('Payload URL').fill(receiver.endpoint('/hooks/noscript', SECRET));
        await page.getByLabel('security.alert', { exact: true }).check();
        await page.getByRole('button', { name: 'Add webhook' }).click();
        await page.waitForURL(/done=added$/);
        const field = page.getByLabel('Secret', { exact: true });
        assert.equal(await field.getAttribute('readonly'), '');
        assert.match(await field.inputValue(), /^whsec_/);
        assert.equal(await page.getByRole('button', { name: 'Copy' }).count(), 0);
      },
      { javaScriptEnabled: false },
    ));

  it('item 9: one header on every signed-in page; no page wider than the viewport at 1280 and 375 px; quiet secondary actions, Delete as danger', async () => {
    // Content that makes pages wide: a long application name and redirect URI, a webhook, a delivery.
    const long = `https://app.example.com/${'very-long-path-segment-'.repeat(6)}callback`;
    const webhookId = await addWebhook('/hooks/layout');
    let clientId = '';
    await withPage(async (page) => {
      await signIn(page, 'admin@example.com', APPLICATIONS);
      await page.getByLabel('Application name').fill('An application with a rather long name indeed');
      await page.getByLabel('Redirect URIs (one per line)').fill(long);
      await page.getByRole('button', { name: 'Register application' }).click();
      await page.waitForURL((url) => url.pathname === `${APPLICATIONS}/credentials`);
      clientId = await page.getByLabel('Client ID').inputValue();
    });
    const pages = [
      '/dashboard',
      '/dashboard/settings/account',
      '/dashboard/settings/api-keys',
      '/dashboard/settings/webhooks',
      '/dashboard/settings/webhooks/new',
      `/dashboard/settings/webhooks/${webhookId}`,
      `/dashboard/settings/webhooks/${webhookId}/edit`,
      APPLICATIONS,
      `${APPLICATIONS}/${clientId}/delete`,
    ];
    for (const width of [1280, 375])
      await withPage(
        async (page) => {
          await signIn(page, 'admin@example.com', '/dashboard');
          const headers = new Set<string>();
          for (const path of pages) {
            await page.goto(`${api.url}${path}`);
            const { scrollWidth, innerWidth } = await page.evaluate(() => {
              const g = globalThis as unknown as {
                innerWidth: number;
                document: { documentElement: { scrollWidth: number } };
              };
              return { scrollWidth: g.document.documentElement.scrollWidth, innerWidth: g.innerWidth };
            });
            assert.ok(
              scrollWidth <= innerWidth,
              `${path} at ${width} px: ${scrollWidth} px wide, no horizontal scroll`,
            );
            headers.add(((await page.locator('body > header').innerText()) ?? '').replace(/\s+/g, ' ').trim());
            if (width === 375) await assertAccessible(page);
          }
          assert.deepEqual([...headers], ['svc admin@example.com Sign out'], `one header at ${width} px`);

          await page.goto(`${api.url}${APPLICATIONS}`);
          // The radio buttons sit beside their labels.
          for (const label of [
            'Confidential (a server that keeps a secret)',
            'Public (a browser or mobile app: PKCE, no secret)',
          ]) {
            const radio = (await page.getByLabel(label).boundingBox())!;
            const text = (await page
              .locator(`label[for="${await page.getByLabel(label).getAttribute('id')}"]`)
              .boundingBox())!;
            assert.ok(radio.width < 40, `${label}: a radio, not a ${radio.width} px wide block`);
            assert.ok(radio.x + radio.width <= text.x, `${label}: the radio left of its label`);
            assert.ok(
              Math.abs(radio.y + radio.height / 2 - (text.y + text.height / 2)) < text.height,
              `${label}: on its line`,
            );
          }
          // One primary action (Register); Rotate secret and the PKCE switch quiet; Delete in red.
          const style = (name: string, role: 'button' | 'link' = 'button') =>
            page
              .getByRole(role, { name })
              .first()
              .evaluate((e) => {
                const css = (
                  globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string; color: string } }
                ).getComputedStyle(e);
                return { background: css.backgroundColor, color: css.color };
              });
          const primary = await style('Register application');
          assert.equal(primary.background, 'rgb(29, 78, 216)');
          assert.equal(
            (await style('Rotate secret of An application with a rather long name indeed')).background,
            'rgb(255, 255, 255)',
          );
          assert.equal(
            (await style('Allow skipping PKCE for An application with a rather long name indeed')).background,
            'rgb(255, 255, 255)',
          );
          assert.equal(
            (await style('Delete An application with a rather long name indeed', 'link')).color,
            'rgb(185, 28, 28)',
          );
          await page.goto(`${api.url}${APPLICATIONS}/${clientId}/delete`);
          assert.equal((await style('Delete application')).background, 'rgb(185, 28, 28)', 'the confirmation: danger');
        },
        { viewport: { width, height: 800 } },
      );
  });

  /** Whether a browser context is still signed in (the dashboard answers, or sends it to /login). */
  async function signedIn(page: Page): Promise<boolean> {
    await page.goto(`${api.url}/dashboard`);
    return new URL(page.url()).pathname === '/dashboard';
  }

  it('item 10: changing the password needs the current one, keeps this browser signed in and signs out the others', async () => {
    const { accountId: other } = await createUser(api.app, { email: 'pw@example.com', role: 'member' });
    assert.ok(other);
    const elsewhere = await (await sharedBrowser()).newContext();
    try {
      const otherPage = await elsewhere.newPage();
      await signIn(otherPage, 'pw@example.com', '/dashboard');
      await withPage(async (page) => {
        await signIn(page, 'pw@example.com', '/dashboard/settings/account');
        await page.getByLabel('Current password').fill('not the password at all');
        await page.getByLabel('New password', { exact: true }).fill('a brand new password here');
        await page.getByLabel('New password again').fill('a brand new password here');
        await page.getByRole('button', { name: 'Change password' }).click();
        assert.match(
          (await page.getByRole('alert').textContent()) ?? '',
          /Current password: is not your current password/,
        );
        await assertAccessible(page);
        assert.equal(await signedIn(otherPage), true, 'a refused change ends nothing');

        await page.goto(`${api.url}/dashboard/settings/account`);
        await page.getByLabel('Current password').fill(TEST_PASSWORD);
        await page.getByLabel('New password', { exact: true }).fill('a brand new password here');
        await page.getByLabel('New password again').fill('a brand new password here');
        await page.getByRole('button', { name: 'Change password' }).click();
        await page.waitForURL(/done=password/);
        assert.match((await page.locator('#password-changed').textContent()) ?? '', /password is changed/);
        await assertAccessible(page);
        assert.equal(await signedIn(page), true, 'this browser stays signed in');
        assert.equal(await signedIn(otherPage), false, 'the other browser is signed out');
      });
      await withPage(async (page) => {
        await signIn(page, 'pw@example.com', '/dashboard', 'a brand new password here');
      });
    } finally {
      await elsewhere.close();
    }
  });

  it('item 10: a reset link (issued as `svc users reset-password` does) works once, sets the password and ends every session', async () => {
    await createUser(api.app, { email: 'forgot@example.com', role: 'member', accountId });
    const elsewhere = await (await sharedBrowser()).newContext();
    try {
      const otherPage = await elsewhere.newPage();
      await signIn(otherPage, 'forgot@example.com', '/dashboard');
      await withPage(async (page) => {
        // No mail configured here: the page says who can issue a link.
        await page.goto(`${api.url}/login`);
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await page.waitForURL(/\/password\/forgot$/);
        assert.match((await page.locator('#no-mail').textContent()) ?? '', /svc users reset-password --email/);
        await assertAccessible(page);

        const issued = await api.app
          .get(CommandBus)
          .execute(new IssuePasswordResetCommand({ email: 'forgot@example.com' }));
        assert.ok(issued);
        const link = `${api.url}/password/reset?token=${issued.token}`;
        await page.goto(link);
        await page.getByLabel('New password', { exact: true }).fill('the reset password of mine');
        await page.getByLabel('New password again').fill('not the same one at all');
        await page.getByRole('button', { name: 'Set the new password' }).click();
        assert.match((await page.getByRole('alert').textContent()) ?? '', /differ/);
        await assertAccessible(page);
        await page.getByLabel('New password', { exact: true }).fill('the reset password of mine');
        await page.getByLabel('New password again').fill('the reset password of mine');
        await page.getByRole('button', { name: 'Set the new password' }).click();
        await page.waitForURL(/\/login\?reset=1$/);
        assert.match((await page.getByRole('status').textContent()) ?? '', /password is changed/);
        assert.equal(await signedIn(otherPage), false, 'every session of the user ended');

        const again = await page.goto(link);
        assert.equal(again?.status(), 400, 'single use');
        assert.match((await page.getByRole('alert').textContent()) ?? '', /used already/);
        await assertAccessible(page);
        await signIn(page, 'forgot@example.com', '/dashboard', 'the reset password of mine');
      });
    } finally {
      await elsewhere.close();
    }
  });

  /** Clicks a form's button and waits for the page it leads to (a POST, then the 303's GET). */
  async function submitted(page: Page, button: ReturnType<Page['getByRole']>): Promise<void> {
    const loaded = page.waitForEvent('load');
    await button.click();
    await loaded;
  }

  it('item 10: an admin adds a user (a one-time reset link, shown once), changes a role and removes them; the last admin stays', () =>
    withPage(async (page) => {
      await signIn(page, 'admin@example.com', '/dashboard/settings/users');
      await assertAccessible(page);
      await page.getByLabel('Email').fill('invitee@example.com');
      await page.getByLabel('Role', { exact: true }).selectOption('member');
      // Each form answers 303 back to the same path: wait for the page load, not for a URL.
      await submitted(page, page.getByRole('button', { name: 'Add user' }));
      const status = page.getByRole('status');
      assert.match((await status.textContent()) ?? '', /invitee@example\.com[\s\S]*works\s+once/);
      assert.match((await status.getByRole('link').getAttribute('href')) ?? '', /^\/password\/reset\?token=/);
      await assertAccessible(page);
      await page.reload();
      assert.equal(await page.getByRole('status').count(), 0, 'the link is shown once');

      await page.getByLabel('Role of invitee@example.com').selectOption('admin');
      await submitted(
        page,
        page.getByRole('row', { name: /invitee@example\.com/ }).getByRole('button', { name: 'Change role' }),
      );
      assert.equal(await page.getByLabel('Role of invitee@example.com').inputValue(), 'admin');
      await submitted(page, page.getByRole('button', { name: 'Remove invitee@example.com' }));
      assert.equal(await page.getByRole('row', { name: /invitee@example\.com/ }).count(), 0);

      // The account's other users are members: demoting the admin is refused, with the reason.
      await page.getByLabel('Role of admin@example.com').selectOption('member');
      await submitted(
        page,
        page.getByRole('row', { name: /admin@example\.com/ }).getByRole('button', { name: 'Change role' }),
      );
      assert.match((await page.getByRole('alert').textContent()) ?? '', /last admin of the account/);
      await assertAccessible(page);
    }));

  it('item 10: with SVC_SMTP_URL, "Forgot your password?" mails a link (to a local SMTP sink) and says the same for unknown addresses', async () => {
    const sink = await SmtpSink.start();
    const mailing = await startTestApi({ env: { SVC_SMTP_URL: sink.url, SVC_SMTP_FROM: 'svc@example.com' } });
    try {
      await createUser(mailing.app, { email: 'mailed@example.com', role: 'admin' });
      await withPage(async (page) => {
        for (const email of ['nobody@example.com', 'mailed@example.com']) {
          await page.goto(`${mailing.url}/password/forgot`);
          await page.getByLabel('Email').fill(email);
          await page.getByRole('button', { name: 'Send me a reset link' }).click();
          await page.waitForURL(/sent=1$/);
          assert.match((await page.locator('#reset-sent').textContent()) ?? '', /If a user has that address/);
        }
        await assertAccessible(page);
        assert.equal(sink.mails.length, 1, 'a mail for the known address only');
        const mail = sink.mails[0]!;
        assert.deepEqual(mail.to, ['<mailed@example.com>']);
        const text = mail.data
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        const link = /(http:\/\/\S+\/password\/reset\?token=[A-Za-z0-9_-]{43})/.exec(text)?.[1];
        assert.ok(link, 'the mail carries the link');
        await page.goto(link);
        await page.getByLabel('New password', { exact: true }).fill('a mailed new password');
        await page.getByLabel('New password again').fill('a mailed new password');
        await page.getByRole('button', { name: 'Set the new password' }).click();
        await page.waitForURL(/\/login\?reset=1$/);
      });
    } finally {
      await mailing.close();
      await sink.close();
    }
  });

  it('item 10: the consent page names the application, the account that registered it, and each scope in words', () =>
    withPage(async (page) => {
      await signIn(page, 'admin@example.com', APPLICATIONS);
      await page.getByLabel('Application name').fill('Consent app');
      await page.getByLabel('Redirect URIs (one per line)').fill('http://127.0.0.1:9/callback');
      await page.getByLabel('Public (a browser or mobile app: PKCE, no secret)').check();
      await page.getByRole('button', { name: 'Register application' }).click();
      await page.waitForURL((url) => url.pathname === `${APPLICATIONS}/credentials`);
      const clientId = await page.getByLabel('Client ID').inputValue();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'http://127.0.0.1:9/callback',
        scope: 'read agents:run',
        state: 'consent',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      });
      await page.goto(`${api.url}/oauth/authorize?${query.toString()}`);
      await page.waitForURL(/\/oauth\/interaction\//);
      assert.equal(await page.locator('#client-name').textContent(), 'Consent app');
      const owner = (await page.locator('#client-owner').textContent())!.replace(/\s+/g, ' ');
      assert.match(
        owner,
        /An application registered by \S.*\. After your answer you go back to http:\/\/127\.0\.0\.1:9\./,
      );
      assert.deepEqual(
        (await page.locator('#scopes li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim()),
        ["Read your account's resources (read-only) (read)", 'Run agents (agents:run)'],
      );
      assert.equal(
        ((await page.locator('body > header').innerText()) ?? '').replace(/\s+/g, ' ').trim(),
        'svc admin@example.com Sign out',
        'the same header as the dashboard',
      );
      await assertAccessible(page);
    }));
});
