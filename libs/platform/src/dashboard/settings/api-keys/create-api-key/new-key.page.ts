import { html, type SafeHtml } from '#http';
import type { Session } from '../../../../sessions/session.store.js';
import { contentSecurityPolicy, pageScript } from '../../../../web/page-layout.js';
import type { NewKey } from '../new-key-flash.store.js';
import { settingsLayout } from '../../settings-layout.js';

/**
 * The copy button, a progressive enhancement: without script the button stays hidden and the
 * value is a read-only field to select. Allowed by its hash in this page's CSP only.
 */
export const COPY_KEY_SCRIPT = pageScript(
  `(function(){var b=document.getElementById('copy-key'),f=document.getElementById('new-key-value'),s=document.getElementById('copy-status');` +
    `if(!b||!f||!s||!navigator.clipboard)return;b.hidden=false;` +
    `f.addEventListener('focus',function(){f.select()});` +
    `b.addEventListener('click',function(){navigator.clipboard.writeText(f.value).then(function(){s.textContent='Copied.'},function(){f.select();s.textContent='Select the key and copy it.'})})})();`,
);

/** This page's CSP: the usual one, plus the copy button's script by its hash. */
export const NEW_KEY_PAGE_CSP = contentSecurityPolicy([COPY_KEY_SCRIPT]);

/** The one page that shows a new key's value. */
export function newKeyPage(session: Session, csrfToken: string, key: NewKey): SafeHtml {
  return settingsLayout({
    session,
    csrfToken,
    current: 'api-keys',
    title: 'New API key',
    scripts: [COPY_KEY_SCRIPT],
    main: html`<h1>New API key</h1>
      <p class="ok" role="status">
        The key <strong>${key.name}</strong> is created. Copy its value now: it is shown only once, never again.
      </p>
      <label for="new-key-value">API key</label>
      <input id="new-key-value" type="text" readonly value="${key.value}" autocomplete="off" spellcheck="false" />
      <div class="actions">
        <button type="button" id="copy-key" hidden>Copy</button>
        <span id="copy-status" role="status" aria-live="polite"></span>
      </div>
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
