import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { html, type SafeHtml } from '#http';
import { MIN_SECRET_BYTES } from '#webhooks';
import { PLATFORM_EVENT_MEANINGS, PLATFORM_EVENT_TYPES } from '../../../platform-events/platform-event.js';
import { checkboxes, csrfInput } from '#identity';
import { csrfField } from '../settings-layout.js';

/**
 * How the form sets the signing secret: one generated here (shown once after saving, with a Copy
 * button), the person's own, or (editing) the current one kept.
 */
export const SECRET_MODES = ['generate', 'own', 'keep'] as const;
export type SecretMode = (typeof SECRET_MODES)[number];

/** "Add webhook" and its edit form (urlencoded); the engine's command checks URL, secret and events. */
export const webhookForm = z.object({
  url: z.string().trim().min(1, 'enter the URL that receives deliveries').max(2048),
  secret_mode: z.enum(SECRET_MODES).optional(),
  secret: z.string().max(1024).default(''),
  events: checkboxes(PLATFORM_EVENT_TYPES.length * 2).refine((e) => e.length > 0, 'tick at least one event'),
  ...csrfInput,
});

export const WEBHOOK_LABELS = { url: 'Payload URL', secret: 'Secret', events: 'Events' };

/** The flash kind of a generated secret, shown once on the webhook's page after the redirect. */
export const WEBHOOK_SECRET_FLASH = 'webhook-secret';
export interface GeneratedWebhookSecret {
  webhookId: string;
  secret: string;
}

/** `whsec_` + 32 random bytes (base64url): twice the engine's minimum, and says what it is. */
export function generateWebhookSecret(random: (n: number) => Uint8Array = (n) => randomBytes(n)): string {
  return `whsec_${Buffer.from(random(32)).toString('base64url')}`;
}

/**
 * The secret the command gets (undefined: keep the current one) and whether it was generated, or
 * the sentence that refuses the choice. A typed secret is never dropped silently: with "generate"
 * or "keep" chosen, the field must be empty. No mode (a client without the radios): own when typed.
 */
export function chosenSecret(
  form: { secret_mode?: SecretMode; secret: string },
  { editing }: { editing: boolean },
  random?: (n: number) => Uint8Array,
): { secret: string | undefined; generated: boolean } | { error: string } {
  const typed = form.secret !== '';
  const mode = form.secret_mode ?? (typed ? 'own' : editing ? 'keep' : 'generate');
  if (mode === 'own')
    return typed ? { secret: form.secret, generated: false } : { error: 'Secret: enter your secret.' };
  if (typed)
    return {
      error: 'Secret: a secret is typed, but "Use my own secret" is not chosen: choose it, or empty the field.',
    };
  if (mode === 'keep') {
    if (!editing) return { error: 'Secret: choose to generate one or to use your own.' };
    return { secret: undefined, generated: false };
  }
  return { secret: generateWebhookSecret(random), generated: true };
}

export interface WebhookFormValues {
  url: string;
  events: string[];
  errors: string[];
  secretMode?: SecretMode;
}

/** The form's values as typed, to show them again after a refusal (never the secret). */
export function typedWebhookForm(body: unknown, errors: string[]): WebhookFormValues {
  const b = (body ?? {}) as Record<string, unknown>;
  const events = b.events === undefined ? [] : ([] as unknown[]).concat(b.events);
  const mode = SECRET_MODES.find((m) => m === b.secret_mode);
  return {
    url: typeof b.url === 'string' ? b.url.slice(0, 2048) : '',
    events: events.filter((e): e is string => typeof e === 'string'),
    errors,
    ...(mode ? { secretMode: mode } : {}),
  };
}

function secretChoice(mode: SecretMode, checked: SecretMode, label: string, hint: string): SafeHtml {
  return html`<div class="choice">
    <input
      type="radio"
      id="secret-mode-${mode}"
      name="secret_mode"
      value="${mode}"
      aria-describedby="secret-mode-${mode}-hint"
      ${mode === checked ? html`checked` : null}
    />
    <label for="secret-mode-${mode}">${label}</label>
    <p class="muted" id="secret-mode-${mode}-hint">${hint}</p>
  </div>`;
}

/** The fields of a webhook: Payload URL, the secret, one checkbox per event type with its meaning. */
export function webhookFields(
  csrfToken: string,
  values: WebhookFormValues,
  { editing }: { editing: boolean },
): SafeHtml {
  const mode = values.secretMode ?? (editing ? 'keep' : 'generate');
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
    <fieldset>
      <legend>Signing secret</legend>
      <p class="muted" id="secret-hint">
        Deliveries are signed with it (<code>X-Service-Signature</code>); your receiver checks each one.
      </p>
      ${editing ? secretChoice('keep', mode, 'Keep the current secret', 'Nothing changes for your receiver.') : null}
      ${secretChoice(
        'generate',
        mode,
        editing ? 'Generate a new secret' : 'Generate a secret (recommended)',
        'Shown once after saving, with a Copy button; it cannot be shown again.',
      )}
      ${secretChoice('own', mode, 'Use my own secret', `At least ${MIN_SECRET_BYTES} bytes, typed below.`)}
      <label for="secret">Secret</label>
      <input
        id="secret"
        name="secret"
        type="password"
        autocomplete="off"
        maxlength="1024"
        aria-describedby="secret-hint"
      />
    </fieldset>
    <fieldset>
      <legend>Events</legend>
      ${PLATFORM_EVENT_TYPES.map(
        (type) =>
          html`<div class="choice">
            <input
              type="checkbox"
              id="event-${type}"
              name="events"
              value="${type}"
              aria-describedby="event-${type}-meaning"
              ${values.events.includes(type) ? html`checked` : null}
            />
            <label for="event-${type}">${type}</label>
            <span class="muted" id="event-${type}-meaning">${PLATFORM_EVENT_MEANINGS[type]}</span>
          </div>`,
      )}
    </fieldset>`;
}
