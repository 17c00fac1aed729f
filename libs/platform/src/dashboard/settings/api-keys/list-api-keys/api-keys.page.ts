import { type ApiKeyView, SCOPES } from '#access';
import { html, type SafeHtml } from '#http';
import { roleGrants, type Session } from '#identity';
import { csrfField, settingsLayout, when } from '../../settings-layout.js';

export interface NewKeyForm {
  description: string;
  scopes: string[];
  /** Why the last attempt was refused, as sentences. */
  errors: string[];
}

export interface ApiKeysPageParts {
  session: Session;
  csrfToken: string;
  keys: ApiKeyView[];
  /** The next page's cursor, when there is one. */
  nextCursor: string | null;
  form?: NewKeyForm;
  /** A confirmation after an action (`Key revoked.`). */
  done?: string;
}

/**
 * Settings → API keys: the account's keys (never a value), and the form for a new one with one
 * checkbox per scope, labelled with the scope's exact name. A scope the user does not hold is
 * shown but cannot be ticked (the command refuses it anyway, like POST /v1/api-keys).
 */
export function apiKeysPage({ session, csrfToken, keys, nextCursor, form, done }: ApiKeysPageParts): SafeHtml {
  const isAdmin = roleGrants(session.role, 'admin');
  const errors = form?.errors ?? [];
  return settingsLayout({
    session,
    csrfToken,
    current: 'api-keys',
    title: 'API keys',
    main: html`<h1>API keys</h1>
      ${done ? html`<p class="ok" role="status">${done}</p>` : null}
      <p class="muted">
        Keys authenticate requests to <code>/v1</code> (<code>Authorization: Bearer &lt;key&gt;</code>). A key's value
        is shown once, when it is created.
      </p>
      ${
        keys.length === 0
          ? html`<p>This account has no API keys yet.</p>`
          : html`<div class="table-scroll">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Description</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Prefix</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Revoked</th>
                    ${isAdmin ? html`<th scope="col"><span class="muted">Actions</span></th>` : null}
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (key) =>
                      html`<tr id="key-${key.id}">
                        <td>${key.name}</td>
                        <td>${key.scopes.map((s, i) => html`${i ? ', ' : ''}<code>${s}</code>`)}</td>
                        <td><code>${key.prefix}…</code></td>
                        <td>${when(key.created_at)}</td>
                        <td>${key.last_used_at ? when(key.last_used_at) : html`<span class="muted">Never</span>`}</td>
                        <td>${key.revoked_at ? when(key.revoked_at) : html`<span class="muted">No</span>`}</td>
                        ${
                          isAdmin
                            ? html`<td>
                                ${
                                  key.revoked_at
                                    ? null
                                    : html`<a class="danger" href="/dashboard/settings/api-keys/${key.id}/revoke"
                                        >Revoke</a
                                      >`
                                }
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
        nextCursor
          ? html`<p><a href="/dashboard/settings/api-keys?cursor=${encodeURIComponent(nextCursor)}">Older keys</a></p>`
          : null
      }
      <h2 id="new-key">New API key</h2>
      ${
        errors.length
          ? html`<div class="notice" role="alert" id="new-key-errors">${errors.map((e) => html`<p>${e}</p>`)}</div>`
          : null
      }
      <form method="post" action="/dashboard/settings/api-keys">
        ${csrfField(csrfToken)}
        <label for="description">Description</label>
        <input
          id="description"
          name="description"
          type="text"
          required
          maxlength="100"
          value="${form?.description ?? ''}"
          ${errors.length ? html`aria-describedby="new-key-errors"` : null}
        />
        <fieldset>
          <legend>Scopes</legend>
          ${SCOPES.map((scope) => {
            const held = roleGrants(session.role, scope);
            return html`<label class="check">
              <input
                type="checkbox"
                name="scopes"
                value="${scope}"
                ${form?.scopes.includes(scope) ? html`checked` : null}
                ${held ? null : html`disabled aria-describedby="scope-not-held"`}
              />${scope}</label
            >`;
          })}
          ${
            isAdmin
              ? null
              : html`<p class="muted" id="scope-not-held">
                  A key cannot get a scope you do not hold: <code>admin</code> is for the account's admins.
                </p>`
          }
        </fieldset>
        <button type="submit">Create key</button>
      </form>`,
  });
}
