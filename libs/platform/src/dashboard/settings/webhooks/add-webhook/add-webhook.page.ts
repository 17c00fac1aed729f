import { html, type SafeHtml } from '#http';
import { type Session } from '#identity';
import { settingsLayout } from '../../settings-layout.js';
import { WEBHOOKS_PATH } from '../webhook-pages.js';
import { webhookFields, type WebhookFormValues } from '../webhook-form.js';

export function addWebhookPage(session: Session, csrfToken: string, values: WebhookFormValues): SafeHtml {
  return settingsLayout({
    session,
    csrfToken,
    current: 'webhooks',
    title: 'Add webhook',
    main: html`<h1>Add webhook</h1>
      <form method="post" action="${WEBHOOKS_PATH}">
        ${webhookFields(csrfToken, values, { editing: false })}
        <div class="actions">
          <button type="submit">Add webhook</button>
          <a href="${WEBHOOKS_PATH}">Cancel</a>
        </div>
      </form>`,
  });
}
