import { html, type SafeHtml } from '#http';
import { COPY_PAGE_CSP, COPY_SCRIPT, copyButton, type Session } from '#identity';
import type { NewKey } from '../new-key-flash.store.js';
import { settingsLayout } from '../../settings-layout.js';

/** This page's CSP: the usual one, plus the Copy button's script by its hash. */
export const NEW_KEY_PAGE_CSP = COPY_PAGE_CSP;

/** The one page that shows a new key's value. */
export function newKeyPage(session: Session, csrfToken: string, key: NewKey): SafeHtml {
  return settingsLayout({
    session,
    csrfToken,
    current: 'api-keys',
    title: 'New API key',
    scripts: [COPY_SCRIPT],
    main: html`<h1>New API key</h1>
      <p class="ok" role="status">
        The key <strong>${key.name}</strong> is created. Copy its value now: it is shown only once, never again.
      </p>
      <label for="new-key-value">API key</label>
      <input id="new-key-value" type="text" readonly value="${key.value}" autocomplete="off" spellcheck="false" />
      ${copyButton('new-key-value')}
      <p><a href="/dashboard/settings/api-keys">Back to API keys</a></p>`,
  });
}

/** The same address again (reload, back button): the value is gone. */
export function newKeyGonePage(session: Session, csrfToken: string): SafeHtml {
  return settingsLayout({
    session,
    csrfToken,
    current: 'api-keys',
    title: 'New API key',
    main: html`<h1>New API key</h1>
      <p class="notice" role="alert">
        A key's value is shown once, right after it is created, and it has been shown. If it was not copied, revoke that
        key and create another.
      </p>
      <p><a href="/dashboard/settings/api-keys">Back to API keys</a></p>`,
  });
}
