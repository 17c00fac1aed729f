import { html, type SafeHtml } from '#http';
import { PASSWORD_MIN_LENGTH } from '../users/password-policy.js';

/**
 * The refusals of a password form, above it (`id` lets the fields point at them). The reset
 * page and the account page show them alike.
 */
export function passwordErrors(id: string, errors: readonly string[]): SafeHtml | null {
  return errors.length
    ? html`<div class="notice" role="alert" id="${id}">${errors.map((e) => html`<p>${e}</p>`)}</div>`
    : null;
}

/**
 * A new password typed twice, with the policy's minimum as the hint: the same fields on the reset
 * page (`errorsId`: its fields point at the refusals) and the account page (`hintMore`: what
 * else the change does).
 */
export function newPasswordFields(p: { errorsId?: string; hintMore?: string } = {}): SafeHtml {
  return html`<label for="new_password">New password</label>
    <input
      id="new_password"
      name="new_password"
      type="password"
      autocomplete="new-password"
      required
      minlength="${PASSWORD_MIN_LENGTH}"
      maxlength="256"
      aria-describedby="new-password-hint${p.errorsId ? ` ${p.errorsId}` : ''}"
    />
    <p class="muted" id="new-password-hint">
      At least ${PASSWORD_MIN_LENGTH} characters.${p.hintMore ? ` ${p.hintMore}` : ''}
    </p>
    <label for="confirm_password">New password again</label>
    <input
      id="confirm_password"
      name="confirm_password"
      type="password"
      autocomplete="new-password"
      required
      maxlength="256"
    />`;
}
