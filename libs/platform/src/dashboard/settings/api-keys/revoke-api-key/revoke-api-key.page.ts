import type { ApiKeyView } from '#access';
import { html, type SafeHtml } from '#http';
import { type Session } from '#identity';
import { csrfField, settingsLayout, when } from '../../settings-layout.js';

/** The confirmation step of "Revoke": a page of its own, so it needs no script. */
export function revokeApiKeyPage(session: Session, csrfToken: string, key: ApiKeyView): SafeHtml {
  return settingsLayout({
    session,
    csrfToken,
    current: 'api-keys',
    title: 'Revoke API key',
    main: html`<h1>Revoke API key</h1>
      <p>
        Revoke <strong>${key.name}</strong> (<code>${key.prefix}…</code>, created ${when(key.created_at)})? Requests
        with it fail from the next one on. This cannot be undone.
      </p>
      <div class="actions">
        <form method="post" action="/dashboard/settings/api-keys/${key.id}/revoke">
          ${csrfField(csrfToken)}
          <button type="submit" class="danger">Revoke</button>
        </form>
        <a href="/dashboard/settings/api-keys">Cancel</a>
      </div>`,
  });
}
