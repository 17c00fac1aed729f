import { html, type SafeHtml } from '#http';
import type { WebhookView } from '#webhooks';
import { type Session } from '#identity';
import { settingsLayout, when } from '../../settings-layout.js';
import { WEBHOOKS_PATH, webhookPath } from '../webhook-pages.js';

/** Settings → Webhooks: the account's webhooks and "Add webhook". */
export function webhooksPage(parts: {
  session: Session;
  csrfToken: string;
  webhooks: WebhookView[];
  nextCursor: string | null;
  done?: string;
}): SafeHtml {
  const { webhooks, nextCursor, done } = parts;
  return settingsLayout({
    session: parts.session,
    csrfToken: parts.csrfToken,
    current: 'webhooks',
    title: 'Webhooks',
    main: html`<h1>Webhooks</h1>
      ${done ? html`<p class="ok" role="status">${done}</p>` : null}
      <p class="muted">
        Webhooks POST the events you choose to your URL, signed with your secret, and retry failures after 1 min, 5 min,
        30 min and 2 h.
      </p>
      <p><a href="${WEBHOOKS_PATH}/new">Add webhook</a></p>
      ${
        webhooks.length === 0
          ? html`<p>This account has no webhooks yet.</p>`
          : html`<div class="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Payload URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${webhooks.map(
                    (w) =>
                      html`<tr>
                        <td><a href="${webhookPath(w.id)}">${w.url}</a></td>
                        <td>${w.events.map((e, i) => html`${i ? ', ' : ''}<code>${e}</code>`)}</td>
                        <td>${w.active ? 'Active' : html`<span class="failed">Disabled</span>`}</td>
                        <td>${when(w.created_at)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      ${nextCursor ? html`<p><a href="${WEBHOOKS_PATH}?cursor=${encodeURIComponent(nextCursor)}">Older webhooks</a></p>` : null}`,
  });
}
