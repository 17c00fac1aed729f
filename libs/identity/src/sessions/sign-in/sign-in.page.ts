import { CSRF_FIELD, html, type SafeHtml } from '#http';
import { layout } from '../../web/page-layout.js';

export interface SignInPageParts {
  csrfToken: string;
  /** A safe path to go to after signing in. */
  next?: string;
  /** Typed again into the form after a refusal; the password never is. */
  email?: string;
  /** Why the last attempt failed. */
  notice?: string;
  /** A banner after signing out. */
  signedOut?: boolean;
  /** A banner after a password reset. */
  passwordReset?: boolean;
}

export function signInPage({ csrfToken, next, email, notice, signedOut, passwordReset }: SignInPageParts): SafeHtml {
  return layout({
    title: 'Sign in',
    main: html`<h1>Sign in</h1>
      ${signedOut && !notice ? html`<p class="muted" role="status">You are signed out.</p>` : null}
      ${
        passwordReset && !notice
          ? html`<p class="ok" role="status">Your password is changed: sign in with the new one.</p>`
          : null
      }
      ${notice ? html`<p class="notice" role="alert" id="sign-in-error">${notice}</p>` : null}
      <form method="post" action="/login">
        <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
        ${next ? html`<input type="hidden" name="next" value="${next}" />` : null}
        <label for="email">Email</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxlength="254"
          value="${email ?? ''}"
          ${notice ? html` aria-describedby="sign-in-error"` : null}
        />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required maxlength="256" />
        <button type="submit">Sign in</button>
      </form>
      <p><a href="/password/forgot">Forgot your password?</a></p>`,
  });
}
