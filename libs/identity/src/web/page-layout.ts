import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { CSRF_FIELD, html, type SafeHtml, trustedHtml } from '#http';

/** The pages' one stylesheet: plain, readable, with visible focus and AA contrast. */
const STYLESHEET = `:root{color-scheme:light;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.5;color:#1a1a1a;background:#fff}
body{margin:0}
header{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding:.75rem 1.5rem;border-bottom:1px solid #d4d4d4}
header .brand{font-weight:700;color:#1a1a1a;text-decoration:none}
header .account{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:center;min-width:0}
header .who{overflow-wrap:anywhere}
header form{margin:0}
main{max-width:30rem;margin:3rem auto;padding:0 1rem}
h1{font-size:1.6rem;line-height:1.25;margin:0 0 1.5rem}
label{display:block;font-weight:600;margin:1rem 0 .3rem}
input,textarea,select{font:inherit;width:100%;max-width:100%;box-sizing:border-box;padding:.55rem .7rem;border:1px solid #6b6b6b;border-radius:6px}
button{font:inherit;margin-top:1.5rem;padding:.6rem 1.4rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}
header button{margin-top:0;padding:.4rem 1rem;background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
input:focus-visible,textarea:focus-visible,select:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
a{color:#1d4ed8}
.notice p{margin:0}
.notice{padding:.75rem 1rem;border-radius:6px;border:1px solid #b91c1c;background:#fef2f2;color:#7f1d1d}
.muted{color:#525252}
main.wide{max-width:64rem;margin:2rem auto}
.settings{display:flex;gap:2.5rem;align-items:flex-start}
.settings>nav{flex:0 0 12rem}
.settings>nav ul{list-style:none;margin:0;padding:0}
.settings>nav a{display:block;padding:.4rem .75rem;border-radius:6px;text-decoration:none}
.settings>nav a[aria-current=page]{background:#eff3ff;font-weight:600;color:#1a1a1a;border-left:3px solid #1d4ed8}
.settings>div{flex:1;min-width:0}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}
th,td{text-align:left;padding:.5rem .6rem;border-bottom:1px solid #d4d4d4;vertical-align:top}
th{font-weight:600;background:#f5f5f5}
code{overflow-wrap:anywhere}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
pre{white-space:pre-wrap;word-break:break-all;background:#f5f5f5;padding:.6rem;border-radius:6px;max-height:20rem;overflow:auto}
fieldset{border:1px solid #d4d4d4;border-radius:6px;margin:1rem 0;padding:.5rem 1rem}
legend{font-weight:600;padding:0 .3rem}
label.check{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.35rem 0}
label.check input{width:auto}
.actions{display:flex;gap:.75rem;align-items:center;flex-wrap:wrap}
.actions form{margin:0}
.actions button,td button{margin-top:0}
button.secondary{background:#fff;color:#1d4ed8;border:1px solid #1d4ed8}
button.danger{background:#b91c1c}
a.danger{color:#b91c1c}
.table-scroll{overflow-x:auto;max-width:100%}
@media (max-width:48rem){main.wide{margin:1rem auto}.settings{flex-direction:column;align-items:stretch;gap:1rem}.settings>nav{flex:none;width:100%}.settings>nav ul{display:flex;flex-wrap:wrap;gap:.25rem}th,td{padding:.4rem}}
.ok{padding:.75rem 1rem;border-radius:6px;border:1px solid #15803d;background:#f0fdf4;color:#14532d}
.badge{display:inline-block;padding:0 .5rem;border-radius:999px;border:1px solid currentColor;font-size:.85em}
.succeeded{color:#15803d}.failed{color:#b91c1c}.pending{color:#525252}
.mark{display:inline-block;min-width:1em;font-weight:700}
.choice{display:grid;grid-template-columns:auto 1fr;column-gap:.6rem;align-items:baseline;margin:.5rem 0}
.choice input{width:auto;margin:0}
.choice label{margin:0;font-weight:400}
.choice>:nth-child(n+3){grid-column:2;margin:0}
details{margin:.25rem 0}
summary{cursor:pointer;color:#1d4ed8}
summary:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}`;

/** Its hash is taken over exactly what the element holds, so the element is written here whole. */
const STYLE_ELEMENT = trustedHtml(`<style>${STYLESHEET}</style>`);

/**
 * No script may run, styles only from the stylesheet above (by its hash), forms post only here,
 * and no other site may frame a page (clickjacking).
 */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The policy, with the hashes of the page's own inline scripts when it has any (a progressive
 * enhancement such as a copy button: `pageScript`); still no other script, no eval, no handler
 * attributes.
 */
export function contentSecurityPolicy(scripts: readonly PageScript[] = []): string {
  return [
    "default-src 'none'",
    ...(scripts.length ? [`script-src ${scripts.map((s) => `'${s.hash}'`).join(' ')}`] : []),
    `style-src '${sha256(STYLESHEET)}'`,
    "img-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

function sha256(text: string): string {
  return `sha256-${createHash('sha256').update(text).digest('base64')}`;
}

/** A constant inline script of the program's own, allowed by its hash (never request data). */
export interface PageScript {
  element: SafeHtml;
  hash: string;
}

export function pageScript(source: string): PageScript {
  return { element: trustedHtml(`<script>${source}</script>`), hash: sha256(source) };
}

/** Who is signed in: every signed-in page has the same header. */
export interface SignedIn {
  email: string;
  /** For the Sign out form. */
  csrfToken: string;
}

export interface PageParts {
  title: string;
  /** The content of `<main>`. */
  main: SafeHtml;
  /** The signed-in person, shown at the header's end with Sign out; absent on public pages. */
  signedIn?: SignedIn;
  /** A wide `<main>` (the dashboard's settings pages, with tables) instead of a narrow column. */
  wide?: boolean;
  /** Inline scripts at the end of the body; sendPage must be given their hashes (`scriptsCsp`). */
  scripts?: readonly PageScript[];
}

/** The one header of the signed-in pages: the signed-in address and Sign out. */
function accountHeader({ email, csrfToken }: SignedIn): SafeHtml {
  return html`<div class="account">
    <span class="muted who" id="signed-in-email">${email}</span>
    <form method="post" action="/logout">
      <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
      <button type="submit" class="secondary">Sign out</button>
    </form>
  </div>`;
}

export function layout({ title, main, signedIn, wide, scripts }: PageParts): SafeHtml {
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
        <header><a class="brand" href="/dashboard">svc</a>${signedIn ? accountHeader(signedIn) : null}</header>
        <main${wide ? html` class="wide"` : null}>${main}</main>
        ${(scripts ?? []).map((s) => s.element)}
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
