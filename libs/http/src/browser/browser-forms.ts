import fastifyCookie from '@fastify/cookie';
import fastifyCsrfProtection from '@fastify/csrf-protection';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The name of the hidden field every form carries its CSRF token in. */
export const CSRF_FIELD = '_csrf';

/** How the browser pages' cookies are set: `Secure` (and the `__Host-` prefix) behind https. */
export interface BrowserCookiePolicy {
  secure: boolean;
}

export function browserCookiePolicy(publicUrl: string | undefined): BrowserCookiePolicy {
  return { secure: publicUrl?.toLowerCase().startsWith('https://') ?? false };
}

/** `__Host-` binds a Secure cookie to this host and path `/`: no subdomain can set or shadow it. */
export function browserCookieName(base: string, policy: BrowserCookiePolicy): string {
  return policy.secure ? `__Host-${base}` : base;
}

/**
 * Cookies and CSRF tokens for the server-rendered pages (ADR 0065): @fastify/cookie, and
 * @fastify/csrf-protection with its secret in an HttpOnly cookie and the token in each form's
 * `_csrf` field (or an `x-csrf-token` header). Registering them checks nothing by itself: only
 * routes behind the platform's CsrfGuard are checked, so the JSON API (Bearer and x-api-key,
 * never cookies) is untouched. Cookies are parsed only where a page asks for them
 * (`cookiesOf`), not on every request. Urlencoded form bodies are already parsed by Nest's
 * Fastify adapter (adding @fastify/formbody as well would fail the start).
 */
export async function registerBrowserForms(app: NestFastifyApplication, policy: BrowserCookiePolicy): Promise<void> {
  await app.register(fastifyCookie, { hook: false });
  await app.register(fastifyCsrfProtection, {
    sessionPlugin: '@fastify/cookie',
    cookieKey: csrfCookieName(policy),
    cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, secure: policy.secure },
    getToken: (request: FastifyRequest) => {
      const field = (request.body as Record<string, unknown> | null | undefined)?.[CSRF_FIELD];
      if (typeof field === 'string') return field;
      const header = request.headers['x-csrf-token'];
      return typeof header === 'string' ? header : undefined;
    },
  });
}

/** The cookie that holds a browser's CSRF secret. */
export function csrfCookieName(policy: BrowserCookiePolicy): string {
  return browserCookieName('svc_csrf', policy);
}

/** The request's cookies, parsed on first use (the cookie plugin runs no hook of its own). */
export function cookiesOf(request: FastifyRequest): Record<string, string | undefined> {
  request.cookies ??= request.server.parseCookie(request.headers.cookie ?? '');
  return request.cookies;
}

/** A CSRF token for a form on this page; sets the secret cookie on a browser's first page. */
export function csrfTokenFor(request: FastifyRequest, reply: FastifyReply): string {
  cookiesOf(request);
  return reply.generateCsrf();
}

/**
 * A new CSRF secret for this browser (set on the reply), and a token made from it: tokens made
 * before (an anonymous page's, seen by whoever planted or read it) no longer pass. For sign-in,
 * alongside the new session. The plugin makes a secret when the request has none, so the
 * request's own is left out of what it reads.
 */
export function renewCsrfSecret(request: FastifyRequest, reply: FastifyReply, policy: BrowserCookiePolicy): string {
  request.cookies = { ...cookiesOf(request), [csrfCookieName(policy)]: undefined };
  return reply.generateCsrf();
}
