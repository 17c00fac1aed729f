import { html, type SafeHtml } from '#http';
import { type Session, type UserDoc } from '#identity';
import { csrfField, settingsLayout, when } from '../settings-layout.js';

export interface NewMemberLink {
  email: string;
  path: string;
  expiresAt: string;
}

/** GET /dashboard/settings/users: the account's users, their roles, and the forms that change them. */
export function usersPage(
  session: Session,
  csrfToken: string,
  users: readonly UserDoc[],
  notice: { errors?: readonly string[]; link?: NewMemberLink | null } = {},
): SafeHtml {
  const roleSelect = (id: string, selected: string) =>
    html`<select id="${id}" name="role">
      <option value="member" ${selected === 'member' ? html`selected` : null}>Member</option>
      <option value="admin" ${selected === 'admin' ? html`selected` : null}>Admin</option>
    </select>`;
  return settingsLayout({
    session,
    csrfToken,
    current: 'users',
    title: 'Users · svc',
    main: html`<h1>Users</h1>
      ${
        notice.errors?.length
          ? html`<div role="alert" class="errors">
              <ul>
                ${notice.errors.map((e) => html`<li>${e}</li>`)}
              </ul>
            </div>`
          : null
      }
      ${
        notice.link
          ? html`<div role="status">
              <p>
                <strong>${notice.link.email}</strong> was added. Give them this link to choose their password; it works
                once, until ${when(notice.link.expiresAt)}, and is not shown again:
              </p>
              <p>
                <a href="${notice.link.path}"><code>${notice.link.path}</code></a>
              </p>
            </div>`
          : null
      }
      <table>
        <caption>
          Users of the account
        </caption>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Added</th>
            <th scope="col">Remove</th>
          </tr>
        </thead>
        <tbody>
          ${users.map(
            (user) =>
              html`<tr>
                <td>${user.email}${user.id === session.userId ? ' (you)' : ''}</td>
                <td>
                  <form method="post" action="/dashboard/settings/users/${user.id}/role">
                    ${csrfField(csrfToken)}
                    <label for="role-${user.id}">Role of ${user.email}</label>
                    ${roleSelect(`role-${user.id}`, user.role)}
                    <button type="submit" class="secondary">Change role</button>
                  </form>
                </td>
                <td>${when(user.created_at)}</td>
                <td>
                  <form method="post" action="/dashboard/settings/users/${user.id}/remove">
                    ${csrfField(csrfToken)}
                    <button type="submit" aria-label="Remove ${user.email}">Remove</button>
                  </form>
                </td>
              </tr>`,
          )}
        </tbody>
      </table>
      <h2 id="add">Add a user</h2>
      <form method="post" action="/dashboard/settings/users">
        ${csrfField(csrfToken)}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" required maxlength="254" autocomplete="off" />
        <label for="role">Role</label>
        ${roleSelect('role', 'member')}
        <button type="submit">Add user</button>
      </form>`,
  });
}
