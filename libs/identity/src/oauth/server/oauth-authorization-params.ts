import { MAX_REDIRECT_URI_LENGTH } from '../clients/oauth-client.decider.js';

/**
 * The longest value (characters) accepted for each authorization request parameter. oidc-provider
 * stores the request's parameters as sent in its interaction document (and echoes `state` back),
 * so anyone could make it keep kilobytes per request; these bounds are far above what a client
 * sends (openid-client's state is 43 characters, our six scopes together 62).
 */
export const AUTHORIZATION_PARAM_LIMITS: Readonly<Record<string, number>> = {
  state: 1024,
  nonce: 256,
  // RFC 7636 §4.2: 43 to 128 characters of [A-Z a-z 0-9 - . _ ~] (the minimum and alphabet below).
  code_challenge: 128,
  redirect_uri: MAX_REDIRECT_URI_LENGTH,
  resource: MAX_REDIRECT_URI_LENGTH,
  scope: 512,
};
/** Any other parameter (client_id, response_type, login_hint, ui_locales, prompt, …). */
export const DEFAULT_PARAM_LIMIT = 256;

const PKCE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

/**
 * What is wrong with an authorization request's parameters, if anything: checked before
 * oidc-provider sees the request, so a refusal reads and writes nothing (ADR 0075).
 */
export function authorizationParamsProblem(
  query: Readonly<Record<string, string | string[] | undefined>>,
): string | undefined {
  for (const [name, value] of Object.entries(query)) {
    const limit = AUTHORIZATION_PARAM_LIMITS[name] ?? DEFAULT_PARAM_LIMIT;
    // A repeated parameter is refused by the provider; each copy is bounded here all the same.
    for (const one of Array.isArray(value) ? value : [value ?? '']) {
      if (one.length > limit) return `${name.slice(0, 64)} must be at most ${limit} characters`;
      if (name === 'code_challenge' && !PKCE_CHALLENGE.test(one))
        return 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)';
    }
  }
  return undefined;
}
