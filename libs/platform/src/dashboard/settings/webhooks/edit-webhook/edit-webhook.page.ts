import { html, type SafeHtml } from '#http';
import { type Session } from '#identity';
import { settingsLayout } from '../../settings-layout.js';
import { webhookPath } from '../webhook-pages.js';
import { webhookFields, type WebhookFormValues } from '../webhook-form.js';

export function editWebhookPage(session: Session, csrfToken: string, id: string, values: WebhookFormValues): SafeHtml {
  const path = webhookPath(id);
  return settingsLayout({
    session,
    csrfToken,
    current: 'webhooks',
    title: 'Edit webhook',
    main: html`<h1>Edit webhook</h1>
      <form method="post" action="${path}">
        ${webhookFields(csrfToken, values, { editing: true })}
        <div class="actions">
          <button type="submit">Update webhook</button>
          <a href="${path}">Cancel</a>
        </div>
      </form>`,
  });
}
