import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, type SafeHtml, trustedHtml } from '#http';

/** The pages' one stylesheet: plain, readable, with visible focus and AA contrast. */
const STYLESHEET = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;background:#fff}
body{margin:0}
header{display:flex;justify-content:space-between;align-items:center;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid #d4d4d4}
header .brand{font-weight:700;color:#1a1a1a;text-decoration:none}
header form{margin:0}
main{max-width:30rem;margin:3rem auto;padding:0 1rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1.5rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
input{font:inherit;width:100%;box-sizing:border-box;padding:.55rem .7rem;border:1px solid #6b6b6b;border-radius:6px}
button{font:inherit;margin-top:1.5rem;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}
header button{margin-top:0;padding:.4rem 1rem;background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
a{color:#1d4ed8}
.notice{padding:.75rem 1rem;border-radius:6px;border:1px solid #b91c1c;background:#fef2f2;color:#7f1d1d}
.muted{color:#525252}`;

/** Its hash is taken over exactly what the element holds, so the element is written here whole. */
const STYLE_ELEMENT = trustedHtml(`<style>${STYLESHEET}</style>`);

/**
 * No script may run, styles only from the stylesheet above (by its hash), forms post only here,
 * and no other site may frame a page (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export interface PageParts {
  title: string;
  /** The content of `<main>`. */
  main: SafeHtml;
  /** Right side of the page header (a Sign out form). */
  headerEnd?: SafeHtml;
}

export function layout({ title, main, headerEnd }: PageParts): SafeHtml {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="same-origin" />
        <title>${title} · svc</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <header><a class="brand" href="/dashboard">svc</a>${headerEnd}</header>
        <main>${main}</main>
      </body>
    </html> `;
}

/** Sends a page: never cached (it may carry a session's data or a form token), never framed. */
export function sendPage(
  reply: FastifyReply,
  status: number,
  page: SafeHtml,
  headers: Record<string, string> = {},
): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      ...headers,
    })
    .send(page.value);
}

/** 303 See Other: after a form, the browser GETs the target. */
export function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.code(303).headers({ location, 'cache-control': 'no-store' }).send();
}
