import { CSRF_FIELD, html, type SafeHtml } from '#http';
import { layout } from '../../web/page-layout.js';

/** What each scope lets an application do, in the words of the spec's scope table. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = {
  read: "Read your account's resources (read-only)",
  write: "Create and change your account's resources",
  admin: 'Full access, settings included (API keys, webhooks)',
  'agents:run': 'Run agents',
  'agents:configure': 'Configure agents',
  'repositories:manage': 'Connect and disconnect repositories',
};

export interface ConsentPageParts {
  uid: string;
  csrfToken: string;
  clientName: string;
  /** The name of the account that registered the application; null when it cannot be read. */
  ownerName: string | null;
  /** Where Approve and Deny send the browser back to. */
  redirectOrigin: string;
  email: string;
  /** Requested and held: what Approve grants. */
  granted: string[];
  /** Requested but not held by this user: never granted. */
  withheld: string[];
}

/** "<client> wants to access your account": the scopes, then Approve and Deny (two forms, no script). */
export function consentPage(p: ConsentPageParts): SafeHtml {
  const action = `/oauth/interaction/${p.uid}`;
  return layout({
    title: `Authorize ${p.clientName}`,
    signedIn: { email: p.email, csrfToken: p.csrfToken },
    main: html`<h1>Authorize <span id="client-name">${p.clientName}</span></h1>
      <p id="client-owner">
        ${
          p.ownerName
            ? html`An application registered by <strong>${p.ownerName}</strong>.`
            : html`An application registered on this service.`
        }
        After your answer you go back to <code>${p.redirectOrigin}</code>.
      </p>
      ${
        p.granted.length
          ? html`<p><strong>${p.clientName}</strong> asks to act for your account (${p.email}) and to:</p>
              <ul id="scopes">
                ${p.granted.map((s) => html`<li>${SCOPE_DESCRIPTIONS[s] ?? s} (<code>${s}</code>)</li>`)}
              </ul>`
          : html`<p class="notice" role="alert">None of the scopes ${p.clientName} asks for can be granted by you.</p>`
      }
      ${
        p.withheld.length
          ? html`<p class="muted" id="withheld">
              Not granted (your role does not hold them):
              ${p.withheld.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`)}
            </p>`
          : null
      }
      ${
        p.granted.length
          ? html`<form method="post" action="${action}/approve">
              <input type="hidden" name="${CSRF_FIELD}" value="${p.csrfToken}" />
              <button type="submit">Approve</button>
            </form>`
          : null
      }
      <form method="post" action="${action}/deny">
        <input type="hidden" name="${CSRF_FIELD}" value="${p.csrfToken}" />
        <button type="submit" class="secondary">Deny</button>
      </form>`,
  });
}
