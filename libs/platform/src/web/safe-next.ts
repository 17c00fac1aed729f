/** Where a browser goes after signing in when it asked for nothing (or for something unsafe). */
export const AFTER_SIGN_IN = '/dashboard';

const BASE = 'http://svc.invalid';

/**
 * A `next` parameter that is a path on this site, normalised; undefined for anything else.
 * Refused: absolute and scheme-relative URLs (`//evil`), backslashes (browsers read `/\evil`
 * as `//evil`), control characters, and the sign-in and sign-out pages themselves.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2000) return undefined;
  if (!value.startsWith('/') || value.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  if (url.pathname === '/login' || url.pathname === '/logout') return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
