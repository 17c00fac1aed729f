import { z } from 'zod';
import { html, type SafeHtml } from '#http';
import { MIN_SECRET_BYTES } from '#webhooks';
import { PLATFORM_EVENT_TYPES } from '../../../platform-events/platform-event.js';
import { checkboxes, csrfInput } from '../form-input.js';
import { csrfField } from '../settings-layout.js';

/** "Add webhook" and its edit form (urlencoded); the engine's command checks URL, secret and events. */
export const webhookForm = z.object({
  url: z.string().trim().min(1, 'enter the URL that receives deliveries').max(2048),
  secret: z.string().max(1024),
  events: checkboxes(PLATFORM_EVENT_TYPES.length * 2).refine((e) => e.length > 0, 'tick at least one event'),
  ...csrfInput,
});

export const WEBHOOK_LABELS = { url: 'Payload URL', secret: 'Secret', events: 'Events' };

export interface WebhookFormValues {
  url: string;
  events: string[];
  errors: string[];
}

/** The form's values as typed, to show them again after a refusal (never the secret). */
export function typedWebhookForm(body: unknown, errors: string[]): WebhookFormValues {
  const b = (body ?? {}) as Record<string, unknown>;
  const events = b.events === undefined ? [] : ([] as unknown[]).concat(b.events);
  return {
    url: typeof b.url === 'string' ? b.url.slice(0, 2048) : '',
    events: events.filter((e): e is string => typeof e === 'string'),
    errors,
  };
}

/** The fields of a webhook: Payload URL, Secret, one checkbox per event type (the spec's names). */
export function webhookFields(
  csrfToken: string,
  values: WebhookFormValues,
  { editing }: { editing: boolean },
): SafeHtml {
  return html`${
      values.errors.length
        ? html`<div class="notice" role="alert" id="webhook-errors">
            ${values.errors.map((e) => html`<p>${e}</p>`)}
          </div>`
        : null
    }
    ${csrfField(csrfToken)}
    <label for="url">Payload URL</label>
    <input
      id="url"
      name="url"
      type="url"
      required
      maxlength="2048"
      placeholder="https://example.com/webhooks"
      value="${values.url}"
      ${values.errors.length ? html`aria-describedby="webhook-errors"` : null}
    />
    <label for="secret">Secret</label>
    <input
      id="secret"
      name="secret"
      type="password"
      autocomplete="off"
      maxlength="1024"
      ${editing ? null : html`required`}
      aria-describedby="secret-hint"
    />
    <p class="muted" id="secret-hint">
      At least ${MIN_SECRET_BYTES} bytes. Deliveries are signed with it (<code>X-Service-Signature</code>); it is never
      shown again.${editing ? ' Leave it empty to keep the current secret.' : ''}
    </p>
    <fieldset>
      <legend>Events</legend>
      ${PLATFORM_EVENT_TYPES.map(
        (type) =>
          html`<label class="check"
            ><input
              type="checkbox"
              name="events"
              value="${type}"
              ${values.events.includes(type) ? html`checked` : null}
            />${type}</label
          >`,
      )}
    </fieldset>`;
}
