import { html, type SafeHtml } from '#http';
import type { WebhookView } from '#webhooks';
import { type Session } from '#identity';
import { csrfField, settingsLayout } from '../../settings-layout.js';
import { webhookPath } from '../webhook-pages.js';

/** The confirmation step of Delete: a page of its own, so it needs no script. */
export function deleteWebhookPage(session: Session, csrfToken: string, webhook: WebhookView): SafeHtml {
  const path = webhookPath(webhook.id);
  return settingsLayout({
    session,
    csrfToken,
    current: 'webhooks',
    title: 'Delete webhook',
    main: html`<h1>Delete webhook</h1>
      <p>
        Delete the webhook to <code>${webhook.url}</code>? It receives nothing more, and its pending retries stop. This
        cannot be undone.
      </p>
      <div class="actions">
        <form method="post" action="${path}/delete">
          ${csrfField(csrfToken)}
          <button type="submit" class="danger">Delete webhook</button>
        </form>
        <a href="${path}">Cancel</a>
      </div>`,
  });
}
