/** Where a browser goes after signing in when it asked for nothing (or for something unsafe). */
export const AFTER_SIGN_IN = '/dashboard';

const BASE = 'http://svc.invalid';
const MAX_LENGTH = 2000;

/**
 * A `next` parameter that is a path on this site, normalised; undefined for anything else.
 * Refused: absolute and scheme-relative URLs (`//evil`), backslashes (browsers read `/\evil`
 * as `//evil`), control characters, and the sign-in and sign-out pages themselves.
 *
 * The checks hold for the normalised result, the value that becomes the Location: dot segments
 * (`/..//evil`, `/%2e%2e//evil`) collapse into `//evil` only when normalised.
 */
export function safeNext(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return undefined;
  if (!isLocalPath(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return undefined;
  }
  if (url.origin !== BASE) return undefined;
  if (url.pathname === '/login' || url.pathname === '/logout') return undefined;
  const next = `${url.pathname}${url.search}${url.hash}`;
  // What the browser is sent must itself be a path here, and resolve to what was checked.
  if (next.length > MAX_LENGTH || !isLocalPath(next) || new URL(next, BASE).href !== url.href) return undefined;
  return next;
}

/** One leading slash, no backslash or control character anywhere: a path a browser keeps on this origin. */
function isLocalPath(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return value.startsWith('/') && !value.startsWith('//') && !/[\u0000-\u001f\u007f\\]/.test(value);
}
