import { CSRF_FIELD, html, type SafeHtml } from '#http';
import { settingsLayout } from '../settings-layout.js';
import { type OAuthClientDoc, roleGrants, type Session } from '#identity';

export const OAUTH_APPLICATIONS_PATH = '/dashboard/settings/oauth-applications';
export const OAUTH_CREDENTIALS_PATH = `${OAUTH_APPLICATIONS_PATH}/credentials`;

/** What the page after registering or rotating shows, once. */
export interface ShownCredentials {
  clientId: string;
  clientSecret?: string;
  name: string;
  redirectUris?: string[];
  rotated: boolean;
}

function frame(session: Session, csrfToken: string, title: string, main: SafeHtml): SafeHtml {
  return settingsLayout({ session, csrfToken, current: 'oauth-applications', title, main });
}

export interface RegisterFormValues {
  name?: string;
  redirectUris?: string;
  clientType?: 'confidential' | 'public';
  /** Ticked "Allow this confidential client to skip PKCE". */
  pkceOptional?: boolean;
  /** Field problems after a refused registration. */
  problems?: string[];
}

/** Settings → OAuth applications: the list, and the form to register one. */
export function oauthApplicationsPage(
  session: Session,
  csrfToken: string,
  clients: OAuthClientDoc[],
  form: RegisterFormValues = {},
  notice?: string,
): SafeHtml {
  const canManage = roleGrants(session.role, 'admin');
  const type = form.clientType ?? 'confidential';
  return frame(
    session,
    csrfToken,
    'OAuth applications',
    html`<h1>OAuth applications</h1>
      ${notice ? html`<p role="status" id="notice">${notice}</p>` : null}
      <h2>Registered applications</h2>
      ${
        clients.length === 0
          ? html`<p class="muted" id="no-applications">No OAuth applications yet.</p>`
          : html`<div class="table-scroll">
              <table id="applications">
                <caption class="muted">
                  Applications that can ask users of this account for access
                </caption>
                <thead>
                  <tr>
                    <th scope="col">Application</th>
                    <th scope="col">Type</th>
                    <th scope="col">Redirect URIs</th>
                    ${canManage ? html`<th scope="col">Actions</th>` : null}
                  </tr>
                </thead>
                <tbody>
                  ${clients.map(
                    (c) =>
                      html`<tr>
                        <td>
                          <strong>${c.name}</strong><br /><code>${c.id}</code><br /><span class="muted"
                            >Registered ${c.created_at.slice(0, 10)}</span
                          >
                        </td>
                        <td>
                          ${c.client_type}<br /><span class="muted"
                            >PKCE ${c.pkce === 'optional' ? 'optional (may skip)' : 'required'}</span
                          >
                        </td>
                        <td>${c.redirect_uris.map((u) => html`<code>${u}</code><br />`)}</td>
                        ${
                          canManage
                            ? html`<td>
                                <div class="actions">
                                  ${
                                    c.client_type === 'confidential'
                                      ? html`<form method="post" action="${OAUTH_APPLICATIONS_PATH}/${c.id}/rotate">
                                          <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
                                          <button
                                            type="submit"
                                            class="secondary"
                                            aria-label="Rotate secret of ${c.name}"
                                          >
                                            Rotate secret
                                          </button>
                                        </form>`
                                      : null
                                  }
                                  ${c.client_type === 'confidential' ? pkceToggle(c, csrfToken) : null}
                                  <a
                                    class="danger"
                                    href="${OAUTH_APPLICATIONS_PATH}/${c.id}/delete"
                                    aria-label="Delete ${c.name}"
                                    >Delete</a
                                  >
                                </div>
                              </td>`
                            : null
                        }
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
      }
      ${
        canManage
          ? html`<h2>Register an application</h2>
              ${
                form.problems?.length
                  ? html`<div class="notice" role="alert" id="register-error">
                      <p>The application was not registered:</p>
                      <ul>
                        ${form.problems.map((p) => html`<li>${p}</li>`)}
                      </ul>
                    </div>`
                  : null
              }
              <form method="post" action="${OAUTH_APPLICATIONS_PATH}">
                <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
                <label for="name">Application name</label>
                <input id="name" name="name" type="text" required maxlength="100" value="${form.name ?? ''}" />
                <label for="redirect_uris">Redirect URIs (one per line)</label>
                <textarea id="redirect_uris" name="redirect_uris" rows="3" required>
${form.redirectUris ?? ''}</textarea>
                <fieldset>
                  <legend>Client type</legend>
                  <div class="choice">
                    <input
                      type="radio"
                      id="type-confidential"
                      name="client_type"
                      value="confidential"
                      ${type === 'confidential' ? html`checked` : null}
                    />
                    <label for="type-confidential">Confidential (a server that keeps a secret)</label>
                  </div>
                  <div class="choice">
                    <input
                      type="radio"
                      id="type-public"
                      name="client_type"
                      value="public"
                      ${type === 'public' ? html`checked` : null}
                    />
                    <label for="type-public">Public (a browser or mobile app: PKCE, no secret)</label>
                  </div>
                </fieldset>
                <label class="check">
                  <input
                    type="checkbox"
                    id="pkce_optional"
                    name="pkce"
                    value="optional"
                    aria-describedby="pkce-hint"
                    ${form.pkceOptional ? html`checked` : null}
                  />Allow this confidential client to skip PKCE (only for clients that cannot send
                  code_challenge)</label
                >
                <p class="muted" id="pkce-hint">
                  Leave it unticked: every client should send an S256 code_challenge, which makes a code taken from the
                  redirect useless. A public client can never skip PKCE.
                </p>
                <button type="submit">Register application</button>
              </form>`
          : html`<p class="muted">Only admins of this account can register, rotate or delete applications.</p>`
      }`,
  );
}

/** Require PKCE of a confidential client again, or let it skip PKCE (the other of the two). */
function pkceToggle(c: OAuthClientDoc, csrfToken: string): SafeHtml {
  const next = c.pkce === 'optional' ? 'required' : 'optional';
  return html`<form method="post" action="${OAUTH_APPLICATIONS_PATH}/${c.id}/pkce">
    <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
    <input type="hidden" name="pkce" value="${next}" />
    <button
      type="submit"
      class="secondary"
      aria-label="${next === 'required' ? `Require PKCE of ${c.name}` : `Allow skipping PKCE for ${c.name}`}"
    >
      ${next === 'required' ? 'Require PKCE' : 'Allow skipping PKCE'}
    </button>
  </form>`;
}

/** The one time a client's credentials are shown: after registering, or after a rotation. */
export function oauthCredentialsPage(session: Session, csrfToken: string, c: ShownCredentials): SafeHtml {
  return frame(
    session,
    csrfToken,
    c.rotated ? 'New client secret' : 'Application registered',
    html`<h1>${c.rotated ? html`New secret for ${c.name}` : html`${c.name} is registered`}</h1>
      <p role="status">
        ${
          c.clientSecret
            ? 'Copy the client secret now: it is shown once and never again.'
            : 'This is a public client: it has no secret and must use PKCE.'
        }
      </p>
      <label for="client_id">Client ID</label>
      <input id="client_id" type="text" readonly value="${c.clientId}" />
      ${
        c.clientSecret
          ? html`<label for="client_secret">Client secret</label>
              <input id="client_secret" type="text" readonly value="${c.clientSecret}" />`
          : null
      }
      ${c.rotated ? html`<p class="muted">The previous secret no longer works.</p>` : null}
      <p><a href="${OAUTH_APPLICATIONS_PATH}">Back to OAuth applications</a></p>`,
  );
}

/** The same address again (reload, back button): the credentials were shown, and are gone. */
export function oauthCredentialsGonePage(session: Session, csrfToken: string): SafeHtml {
  return frame(
    session,
    csrfToken,
    'Client credentials',
    html`<h1>Client credentials</h1>
      <p class="notice" role="alert">
        A client secret is shown once, right after it is made, and it has been shown. If it was not copied, rotate the
        secret of that application.
      </p>
      <p><a href="${OAUTH_APPLICATIONS_PATH}">Back to OAuth applications</a></p>`,
  );
}

export function deleteOAuthApplicationPage(session: Session, csrfToken: string, c: OAuthClientDoc): SafeHtml {
  return frame(
    session,
    csrfToken,
    `Delete ${c.name}`,
    html`<h1>Delete ${c.name}?</h1>
      <p>Its client ID <code>${c.id}</code> stops working, and every token it holds is revoked at once.</p>
      <form method="post" action="${OAUTH_APPLICATIONS_PATH}/${c.id}/delete">
        <input type="hidden" name="${CSRF_FIELD}" value="${csrfToken}" />
        <button type="submit" class="danger">Delete application</button>
      </form>
      <p><a href="${OAUTH_APPLICATIONS_PATH}">Cancel</a></p>`,
  );
}
