import { html } from '#http';
import { CONTENT_SECURITY_POLICY, layout } from '../../web/page-layout.js';

/**
 * oidc-provider's error page (an authorization request it cannot send back to the client: an
 * unknown client, a redirect_uri not registered, ...), in the pages' layout and headers.
 */
export function oauthErrorPage(
  error: string,
  description: string | undefined,
): { body: string; headers: Record<string, string> } {
  const page = layout({
    title: 'Authorization failed',
    main: html`<h1>Authorization failed</h1>
      <p class="notice" role="alert"><code>${error}</code>${description ? html`: ${description}` : null}</p>
      <p>Go back to the application and start again. <a href="/dashboard">Your dashboard</a></p>`,
  });
  return {
    body: page.value,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    },
  };
}
