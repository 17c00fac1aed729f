import { CSRF_FIELD, html, type SafeHtml } from '#http';
import { layout } from '../../web/page-layout.js';
import { newPasswordFields, passwordErrors } from '../../web/password-fields.js';
import { RESET_PASSWORD_PATH } from './password-reset-link.js';

export const FORGOT_PASSWORD_PATH = '/password/forgot';

/** "Forgot your password?": the address to mail a link to, or (no mail here) who can issue one. */
export function forgotPasswordPage(p: { csrfToken: string; mailConfigured: boolean; sent?: boolean }): SafeHtml {
  return layout({
    title: 'Reset your password',
    main: html`<h1>Reset your password</h1>
      ${
        p.sent
          ? html`<p class="ok" role="status" id="reset-sent">
              If a user has that address, a link to choose a new password is on its way. It works once, for an hour.
            </p>`
          : null
      }
      ${
        p.mailConfigured
          ? html`<form method="post" action="${FORGOT_PASSWORD_PATH}">
              <input type="hidden" name="${CSRF_FIELD}" value="${p.csrfToken}" />
              <label for="email">Email</label>
              <input id="email" name="email" type="email" autocomplete="username" required maxlength="254" />
              <button type="submit">Send me a reset link</button>
            </form>`
          : html`<p id="no-mail">
              This service sends no mail. Ask an operator of it for a reset link: they make one with
              <code>svc users reset-password --email your@address</code>. It works once, for an hour.
            </p>`
      }
      <p><a href="/login">Back to sign in</a></p>`,
  });
}

/** The form a reset link opens: the new password, twice. */
export function resetPasswordPage(p: { csrfToken: string; token: string; errors?: string[] }): SafeHtml {
  const errors = p.errors ?? [];
  return layout({
    title: 'Choose a new password',
    main: html`<h1>Choose a new password</h1>
      ${passwordErrors('reset-errors', errors)}
      <form method="post" action="${RESET_PASSWORD_PATH}">
        <input type="hidden" name="${CSRF_FIELD}" value="${p.csrfToken}" />
        <input type="hidden" name="token" value="${p.token}" />
        ${newPasswordFields({ errorsId: errors.length ? 'reset-errors' : undefined })}
        <button type="submit">Set the new password</button>
      </form>`,
  });
}

/** A link that was used, expired or never was. */
export function resetLinkInvalidPage(): SafeHtml {
  return layout({
    title: 'Reset link not valid',
    main: html`<h1>Reset link not valid</h1>
      <p class="notice" role="alert">This reset link was used already, has expired, or never was. Ask for another.</p>
      <p><a href="${FORGOT_PASSWORD_PATH}">Reset your password</a> · <a href="/login">Sign in</a></p>`,
  });
}
